/**
 * The byte intervals `/files` delivered under one download, as sorted, disjoint, non-touching `[start, end)`
 * pairs. Overlapping or repeated ranges count once, so fetching the first megabyte a thousand times is still one
 * megabyte, and a file is delivered only when its intervals are exactly `[[0, size]]`.
 */
export type Ranges = [number, number][];

/**
 * More intervals than an honest client ever leaves (it resumes where it stopped, so it leaves one or two): past
 * this, the smallest are dropped. Dropping only ever under-counts, and it bounds the row a client can grow by
 * asking for scattered single bytes.
 */
const MAX_RANGES = 64;

/** `current` with `added` merged in, each clipped to `[0, size)`; empty or inverted intervals are ignored. */
export function mergeRanges(current: Ranges, added: Ranges, size: number): Ranges {
  const all = [...current, ...added]
    .map(([start, end]): [number, number] => [Math.max(0, start), Math.min(size, end)])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  const merged: Ranges = [];
  for (const [start, end] of all) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  if (merged.length <= MAX_RANGES) return merged;
  const kept = new Set([...merged].sort((a, b) => b[1] - b[0] - (a[1] - a[0])).slice(0, MAX_RANGES));
  return merged.filter((range) => kept.has(range));
}

export function coveredBytes(ranges: Ranges): number {
  return ranges.reduce((sum, [start, end]) => sum + (end - start), 0);
}

/** What the database holds, checked: anything not a list of number pairs counts as nothing delivered. */
export function rangesOf(value: unknown): Ranges {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (pair): pair is [number, number] =>
      Array.isArray(pair) && pair.length === 2 && pair.every((n) => Number.isSafeInteger(n) && n >= 0),
  );
}
