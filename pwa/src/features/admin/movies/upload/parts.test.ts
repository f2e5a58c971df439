import { describe, expect, it } from 'vitest';
import { finishedBytes, partRange, pool, remainingParts, sameFile } from './parts.ts';

describe('part helpers', () => {
  it('slices a file into parts, the last one short', () => {
    expect(partRange(1, 10, 25)).toEqual({ start: 0, end: 10 });
    expect(partRange(3, 10, 25)).toEqual({ start: 20, end: 25 });
    expect(remainingParts(3, [{ partNumber: 2, etag: 'a' }])).toEqual([1, 3]);
    expect(
      finishedBytes(
        [
          { partNumber: 3, etag: 'a' },
          { partNumber: 1, etag: 'b' },
        ],
        10,
        25,
      ),
    ).toBe(15);
  });

  it('knows the same file by name, size and last-modified time', () => {
    const file = { name: 'a.mp4', size: 10, lastModified: 5 };
    expect(sameFile(file, { ...file })).toBe(true);
    expect(sameFile(file, { ...file, lastModified: 6 })).toBe(false);
    expect(sameFile(file, { ...file, size: 11 })).toBe(false);
  });

  it('runs at most `limit` jobs at once and stops starting new ones after a failure', async () => {
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    await expect(
      pool([1, 2, 3, 4, 5, 6], 3, async (n) => {
        started.push(n);
        active++;
        peak = Math.max(peak, active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        active--;
        if (n === 2) throw new Error('part 2 failed');
      }),
    ).rejects.toThrow('part 2 failed');
    expect(peak).toBe(3);
    expect(started.length).toBeLessThan(6);
  });
});
