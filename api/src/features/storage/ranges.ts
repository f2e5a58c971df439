/**
 * What to answer to a GET given its Range and If-Range headers (RFC 9110 §14 and §13.1.5). Pure, so the
 * whole header grammar can be property-tested without a server.
 */
export type RangeDecision =
  /** 200 with the whole representation. */
  | { kind: 'full' }
  /** 206 with bytes `start`…`end` (inclusive, already clamped to the representation). */
  | { kind: 'partial'; start: number; end: number }
  /** 416 with `Content-Range: bytes *\/size`. */
  | { kind: 'unsatisfiable' };

export interface RangeRequest {
  method: string;
  /** The Range header as received, if any. */
  range: string | undefined;
  /** The If-Range header as received, if any. */
  ifRange: string | undefined;
  /** The current strong ETag, quoted (`"…"`). */
  etag: string;
  size: number;
}

const FULL: RangeDecision = { kind: 'full' };
const UNSATISFIABLE: RangeDecision = { kind: 'unsatisfiable' };

/** One `range-spec` (§14.1.1), positions kept as BigInt so a 30-digit offset cannot overflow or round. */
type RangeSpec = { first: bigint; last: bigint | null } | { suffixLength: bigint };

const INT_RANGE = /^(\d+)-(\d*)$/;
const SUFFIX_RANGE = /^-(\d+)$/;
/** `range-unit "=" range-set`; the unit is a token, compared case-insensitively (§14.1). */
const RANGES_SPECIFIER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)=(.*)$/s;

export function decideRange(request: RangeRequest): RangeDecision {
  // §14.2: GET is the only method range handling is defined for; a server MUST ignore Range on others (HEAD too).
  if (request.method !== 'GET' || request.range === undefined) return FULL;
  // §13.1.5: the Range applies only if the representation is unchanged, by strong comparison. A weak tag never
  // matches, and a date is not honoured at all (clients always get our strong ETag, so they never need one).
  if (request.ifRange !== undefined && request.ifRange.trim() !== request.etag) return FULL;

  const specs = parseRangeSet(request.range);
  // §14.2: a Range with a unit we do not know, or that is invalid, is ignored: the whole representation.
  if (specs === null) return FULL;
  // Several ranges: also the whole representation (allowed by §14.2, "MAY ignore"). Our clients only ever ask for
  // one range; a multipart/byteranges answer would be code nobody uses, and many small or overlapping ranges are
  // the amplification attack of §17.15. A 200 is what S3 does too, and every client handles it.
  if (specs.length !== 1) return FULL;
  return resolve(specs[0]!, request.size);
}

/** `bytes=` followed by a comma-separated `range-set`; null when the header is not that (or uses another unit). */
function parseRangeSet(header: string): RangeSpec[] | null {
  const specifier = RANGES_SPECIFIER.exec(header.trim());
  if (!specifier || specifier[1]!.toLowerCase() !== 'bytes') return null;
  const specs: RangeSpec[] = [];
  for (const element of specifier[2]!.split(',')) {
    const text = element.trim();
    // §5.6.1.2: recipients accept (and ignore) empty list elements such as `bytes=0-1,,`.
    if (text === '') continue;
    const spec = parseRangeSpec(text);
    if (spec === null) return null;
    specs.push(spec);
  }
  return specs.length === 0 ? null : specs;
}

function parseRangeSpec(text: string): RangeSpec | null {
  const intRange = INT_RANGE.exec(text);
  if (intRange) {
    const first = BigInt(intRange[1]!);
    const last = intRange[2] === '' ? null : BigInt(intRange[2]!);
    // §14.1.1: an int-range whose last-pos is less than its first-pos is invalid.
    if (last !== null && last < first) return null;
    return { first, last };
  }
  const suffix = SUFFIX_RANGE.exec(text);
  return suffix ? { suffixLength: BigInt(suffix[1]!) } : null;
}

/** §14.1.2: satisfiable when first-pos < size, or for a suffix when its length is above zero. */
function resolve(spec: RangeSpec, size: number): RangeDecision {
  // An empty representation has no byte to select.
  if (size === 0) return UNSATISFIABLE;
  const length = BigInt(size);
  if ('suffixLength' in spec) {
    if (spec.suffixLength === 0n) return UNSATISFIABLE;
    // A suffix longer than the representation selects all of it.
    const start = spec.suffixLength >= length ? 0n : length - spec.suffixLength;
    return { kind: 'partial', start: Number(start), end: size - 1 };
  }
  if (spec.first >= length) return UNSATISFIABLE;
  // A last-pos at or beyond the end means "to the end".
  const end = spec.last === null || spec.last >= length ? length - 1n : spec.last;
  return { kind: 'partial', start: Number(spec.first), end: Number(end) };
}
