/** encodeURIComponent throws on half of a surrogate pair; a title cut mid-emoji must not break the link. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `attachment; filename="<ascii>"; filename*=UTF-8''<pct-encoded>` (RFC 6266 §4.3): browsers that read
 * `filename*` get the real title (Luganda, Swahili, emoji…); the rest fall back to the ASCII form.
 */
export function attachmentDisposition(downloadName: string): string {
  const name = downloadName.replace(LONE_SURROGATE, '\uFFFD');
  return `attachment; filename="${asciiFallback(name)}"; filename*=UTF-8''${rfc5987Encode(name)}`;
}

/** Accents dropped (é → e), anything else outside printable ASCII, quotes and backslashes replaced by `_`. */
function asciiFallback(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/gu, '_')
    .replace(/["\\]/g, '_')
    .trim();
  return ascii === '' ? 'download' : ascii;
}

/** RFC 5987 `value-chars`: encodeURIComponent leaves `'()*` alone, but they are not `attr-char`s. */
function rfc5987Encode(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
