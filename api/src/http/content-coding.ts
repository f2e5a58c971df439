/** The content codings the server can send, in the server's order of preference (smallest first). */
export const CONTENT_CODINGS = ['br', 'gzip'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/**
 * Picks the coding of a response from the request's `Accept-Encoding` (RFC 9110 §12.5.3) among `available`:
 * the one with the highest q-value above 0, ties going to the server's order (br, gzip, then identity).
 *
 * - No header: identity (the client may not decode anything; curl and most scripts send none).
 * - `*` stands for every coding the header does not name, identity included; `x-gzip` is gzip (§8.4.1.3).
 * - Identity is acceptable unless `identity;q=0`, or `*;q=0` without an `identity` entry, says otherwise, and it
 *   then comes last among equals: `br;q=0.5` still gets br.
 * - When nothing is acceptable (`identity;q=0` and no coding we have), identity anyway: §12.5.3 lets the server
 *   disregard the header rather than answer 406, and a page that loads beats an error.
 */
export function negotiateCoding(
  acceptEncoding: string | undefined,
  available: readonly ContentCoding[] = CONTENT_CODINGS,
): ContentCoding | 'identity' {
  if (acceptEncoding === undefined) return 'identity';
  const weights = parseAcceptEncoding(acceptEncoding);
  const star = weights.get('*');
  const weightOf = (coding: string) => weights.get(coding) ?? star ?? 0;

  let best: { coding: ContentCoding | 'identity'; q: number } = { coding: 'identity', q: 0 };
  for (const coding of CONTENT_CODINGS) {
    const q = available.includes(coding) ? weightOf(coding) : 0;
    if (q > best.q) best = { coding, q };
  }
  // Implicitly acceptable, identity ranks below any coding the client named.
  const identity = weights.get('identity') ?? star ?? Number.MIN_VALUE;
  if (identity > best.q) return 'identity';
  return best.coding;
}

/** `gzip;q=0.8, br, *;q=0` → gzip 0.8, br 1, * 0. Malformed entries are skipped; a repeated coding keeps its first weight. */
function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [rawName, ...params] = entry.split(';');
    let name = rawName!.trim().toLowerCase();
    if (name === '') continue;
    if (name === 'x-gzip') name = 'gzip';
    let q: number | null = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((part) => part.trim());
      if (key?.toLowerCase() === 'q') q = parseWeight(value);
    }
    if (q !== null && !weights.has(name)) weights.set(name, q);
  }
  return weights;
}

/** RFC 9110 §12.4.2: 0 to 1 with at most three decimals; anything else makes the entry malformed. */
function parseWeight(value: string | undefined): number | null {
  if (!value || !/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value)) return null;
  return Number(value);
}

/** Adds `Accept-Encoding` to a `Vary` header (once), leaving `Vary: *` alone. */
export function varyOnAcceptEncoding(headers: Headers): void {
  const vary = headers.get('Vary');
  if (!vary) {
    headers.set('Vary', 'Accept-Encoding');
    return;
  }
  const names = vary.split(',').map((name) => name.trim().toLowerCase());
  if (names.includes('*') || names.includes('accept-encoding')) return;
  headers.set('Vary', `${vary}, Accept-Encoding`);
}
