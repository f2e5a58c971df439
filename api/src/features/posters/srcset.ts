/** A poster variant as `movies.poster_variants` records it. */
export interface PosterVariant {
  width: number;
  key: string;
}

/**
 * The `srcset` of a movie's posters (`<url> 160w, <url> 320w, …`, narrowest first), each link resolved like the
 * thumbnail's; null while they are not made (clients then use `thumbnail_url` alone).
 */
export async function posterSrcset(
  variants: PosterVariant[] | null,
  link: (key: string) => Promise<string | null>,
): Promise<string | null> {
  if (!variants || variants.length === 0) return null;
  const sorted = [...variants].sort((a, b) => a.width - b.width);
  const links = await Promise.all(sorted.map((v) => link(v.key)));
  const parts = sorted.flatMap((v, i) => (links[i] ? [`${links[i]} ${v.width}w`] : []));
  return parts.length > 0 ? parts.join(', ') : null;
}

/** The picture `thumbnail_url` falls back to when the admin gave none: the widest poster made from a frame. */
export function widestPosterKey(variants: PosterVariant[] | null): string | null {
  if (!variants || variants.length === 0) return null;
  return variants.reduce((a, b) => (b.width > a.width ? b : a)).key;
}

/** The cheapest poster made (160 px wide): what a page that must stay small shows, whatever the screen. */
export function narrowestPosterKey(variants: PosterVariant[] | null): string | null {
  if (!variants || variants.length === 0) return null;
  return variants.reduce((a, b) => (b.width < a.width ? b : a)).key;
}
