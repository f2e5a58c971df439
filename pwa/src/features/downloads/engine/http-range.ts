/** `Content-Range` of a 206 (`bytes a-b/total`) or a 416 (`bytes * /total`), per RFC 9110 §14.4. */
export interface ContentRange {
  /** null for the unsatisfied form `bytes * /total`. */
  start: number | null;
  end: number | null;
  /** null when the server does not know it (`/*`). */
  total: number | null;
}

const SATISFIED = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i;
const UNSATISFIED = /^bytes\s+\*\/(\d+)$/i;

export function parseContentRange(header: string | null): ContentRange | null {
  if (!header) return null;
  const value = header.trim();
  const unsatisfied = UNSATISFIED.exec(value);
  if (unsatisfied) return { start: null, end: null, total: Number(unsatisfied[1]) };
  const match = SATISFIED.exec(value);
  if (!match) return null;
  const start = Number(match[1]);
  const end = Number(match[2]);
  const total = match[3] === '*' ? null : Number(match[3]);
  // An invalid range must never be recombined with what we hold (RFC 9110 §14.4).
  if (end < start || (total !== null && total <= end)) return null;
  return { start, end, total };
}

/** Only a strong validator can say "the same bytes" (RFC 9110 §8.8.1). */
export function strongEtag(header: string | null): string | null {
  if (!header) return null;
  const value = header.trim();
  return value.startsWith('W/') || !value ? null : value;
}
