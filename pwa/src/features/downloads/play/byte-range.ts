/**
 * The `Range` header of a request for a film the service worker plays (decision 0232), read by hand: no regex, and
 * a header longer than any player sends is not read at all. One range only: `bytes=a-b`, `bytes=a-` and `bytes=-n`
 * (RFC 9110 §14.1.2). What cannot be read — several ranges, another unit, a last byte before the first — is ignored
 * as the RFC allows, and the whole film is answered; only a range that starts past the end is unsatisfiable.
 */

/** Far above any real header (`bytes=2147483648-2147745791` is 27 characters). */
const MAX_RANGE_HEADER = 100;
/** 2^53 has 16 digits: a longer number is not a byte offset. */
const MAX_DIGITS = 16;

export type RangeAsk =
  | { kind: 'whole' }
  /** Inclusive offsets, already clamped to the film. */
  | { kind: 'part'; start: number; end: number }
  | { kind: 'unsatisfiable' };

const WHOLE: RangeAsk = { kind: 'whole' };

function offsetOf(text: string): number | null {
  if (text.length === 0 || text.length > MAX_DIGITS) return null;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return null;
  }
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}

/** What `header` asks of a film of `total` bytes. */
export function readRange(header: string | null, total: number): RangeAsk {
  if (header === null || header.length > MAX_RANGE_HEADER) return WHOLE;
  const value = header.trim();
  const equals = value.indexOf('=');
  if (equals < 0 || value.slice(0, equals).trim().toLowerCase() !== 'bytes') return WHOLE;
  const spec = value.slice(equals + 1).trim();
  if (spec.includes(',')) return WHOLE;
  const dash = spec.indexOf('-');
  if (dash < 0) return WHOLE;
  const first = spec.slice(0, dash).trim();
  const last = spec.slice(dash + 1).trim();

  if (first === '') {
    // The last n bytes; a film of 0 bytes has none to give.
    const suffix = offsetOf(last);
    if (suffix === null) return WHOLE;
    if (suffix === 0 || total === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, total - suffix), end: total - 1 };
  }
  const start = offsetOf(first);
  if (start === null) return WHOLE;
  const end = last === '' ? total - 1 : offsetOf(last);
  if (end === null || (last !== '' && end < start)) return WHOLE;
  if (start >= total) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end: Math.min(end, total - 1) };
}
