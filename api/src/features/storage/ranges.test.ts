import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideRange, type RangeDecision } from './ranges.ts';

const ETAG = '"5f5e100-18c1f0a2b3c4d5e6-1a2b"';
const SIZE = 3_000_017;

const get = (range: string | undefined, extra: { ifRange?: string; size?: number; method?: string } = {}) =>
  decideRange({ method: extra.method ?? 'GET', range, ifRange: extra.ifRange, etag: ETAG, size: extra.size ?? SIZE });

const partial = (start: number, end: number): RangeDecision => ({ kind: 'partial', start, end });
const FULL: RangeDecision = { kind: 'full' };
const UNSATISFIABLE: RangeDecision = { kind: 'unsatisfiable' };

/** A byte range spec with the decision RFC 9110 §14.1.2 gives it, computed independently of the parser. */
type SpecCase = { text: string; expected: (size: number) => RangeDecision };

const position = fc.oneof(
  fc.nat({ max: SIZE + 10 }),
  fc.constantFrom(0, 1, SIZE - 2, SIZE - 1, SIZE, SIZE + 1, 2 ** 31, 2 ** 32, 2 ** 53 + 1),
);

const boundedRange: fc.Arbitrary<SpecCase> = fc.tuple(position, position).map(([a, b]) => {
  const [first, last] = a <= b ? [a, b] : [b, a];
  return {
    text: `${first}-${last}`,
    expected: (size) => (first >= size ? UNSATISFIABLE : partial(first, Math.min(last, size - 1))),
  };
});

const openRange: fc.Arbitrary<SpecCase> = position.map((first) => ({
  text: `${first}-`,
  expected: (size) => (first >= size ? UNSATISFIABLE : partial(first, size - 1)),
}));

const suffixRange: fc.Arbitrary<SpecCase> = position.map((length) => ({
  text: `-${length}`,
  expected: (size) => (length === 0 ? UNSATISFIABLE : partial(Math.max(0, size - length), size - 1)),
}));

/** Offsets far past 2^53, where Number parsing would round: never a 5xx, never a wrong slice. */
const hugeDigits = fc.stringMatching(/^[1-9][0-9]{16,40}$/);
const hugeRange: fc.Arbitrary<SpecCase> = fc.oneof(
  hugeDigits.map((digits) => ({ text: `${digits}-`, expected: () => UNSATISFIABLE })),
  hugeDigits.map((digits) => ({ text: `0-${digits}`, expected: (size: number) => partial(0, size - 1) })),
  hugeDigits.map((digits) => ({ text: `-${digits}`, expected: (size: number) => partial(0, size - 1) })),
);

const singleRange = fc.oneof(boundedRange, openRange, suffixRange, hugeRange);

describe('decideRange (RFC 9110 §14)', () => {
  it('answers every single byte range as §14.1.2 says: the clamped slice, or unsatisfiable', () => {
    fc.assert(
      fc.property(singleRange, fc.constantFrom('bytes', 'BYTES', 'Bytes'), (spec, unit) => {
        expect(get(`${unit}=${spec.text}`)).toEqual(spec.expected(SIZE));
      }),
      { numRuns: 2000 },
    );
  });

  it('ignores (200) an inverted range, another unit, or a malformed header, and never throws', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc
            .tuple(fc.nat(), fc.nat())
            .filter(([a, b]) => a > b)
            .map(([a, b]) => `bytes=${a}-${b}`),
          singleRange.map((spec) => `items=${spec.text}`),
          singleRange.map((spec) => `${spec.text}`),
          fc.constantFrom('bytes=', 'bytes=-', 'bytes=--1', 'bytes=1-2-3', 'bytes=a-b', 'bytes=1 -2', 'bytes 0-1'),
          fc.constantFrom('bytes=0x10-', 'bytes=+1-2', 'bytes=1.5-2', 'bytes=\u0661-', 'bytes=,', '=0-1', ''),
        ),
        (header) => {
          expect(get(header)).toEqual(FULL);
        },
      ),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (header) => {
        const decision = get(header);
        if (decision.kind === 'partial') {
          expect(decision.start).toBeGreaterThanOrEqual(0);
          expect(decision.end).toBeGreaterThanOrEqual(decision.start);
          expect(decision.end).toBeLessThan(SIZE);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('answers several ranges with the whole file (200), whatever they are', () => {
    fc.assert(
      fc.property(fc.array(singleRange, { minLength: 2, maxLength: 8 }), (specs) => {
        expect(get(`bytes=${specs.map((spec) => spec.text).join(', ')}`)).toEqual(FULL);
      }),
      { numRuns: 500 },
    );
  });

  it('honours the Range only when If-Range is exactly the current strong ETag (§13.1.5)', () => {
    expect(get('bytes=10-19', { ifRange: ETAG })).toEqual(partial(10, 19));
    expect(get('bytes=10-19', { ifRange: ` ${ETAG} ` })).toEqual(partial(10, 19));
    expect(get('bytes=10-', { ifRange: `W/${ETAG}` })).toEqual(FULL);
    expect(get('bytes=10-', { ifRange: '"another-version"' })).toEqual(FULL);
    expect(get('bytes=10-', { ifRange: 'Sun, 22 Nov 2026 09:00:00 GMT' })).toEqual(FULL);
    // Without a Range there is nothing for If-Range to decide.
    expect(get(undefined, { ifRange: ETAG })).toEqual(FULL);
    fc.assert(
      fc.property(singleRange, fc.string(), (spec, ifRange) => {
        fc.pre(ifRange.trim() !== ETAG);
        expect(get(`bytes=${spec.text}`, { ifRange })).toEqual(FULL);
      }),
      { numRuns: 500 },
    );
  });

  it('ignores Range on HEAD and other methods (§14.2: only GET has range handling)', () => {
    expect(get('bytes=0-9', { method: 'HEAD' })).toEqual(FULL);
    expect(get('bytes=0-9', { method: 'PUT' })).toEqual(FULL);
  });

  it('handles the edges: no header, the last byte, the whole file, an empty file, empty list elements', () => {
    expect(get(undefined)).toEqual(FULL);
    expect(get(`bytes=${SIZE - 1}-${SIZE - 1}`)).toEqual(partial(SIZE - 1, SIZE - 1));
    expect(get(`bytes=${SIZE}-`)).toEqual(UNSATISFIABLE);
    expect(get('bytes=-0')).toEqual(UNSATISFIABLE);
    expect(get(`bytes=-${SIZE + 5}`)).toEqual(partial(0, SIZE - 1));
    expect(get('bytes=0-', { size: 0 })).toEqual(UNSATISFIABLE);
    expect(get('bytes=-5', { size: 0 })).toEqual(UNSATISFIABLE);
    expect(get('bytes=5-9,,')).toEqual(partial(5, 9));
    expect(get(' bytes=5-9 ')).toEqual(partial(5, 9));
  });
});
