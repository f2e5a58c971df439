import { describe, expect, it } from 'vitest';
import { backoffMs, finishedBytes, partRange, pool, remainingParts, sameFile, SpeedMeter } from './parts.ts';

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

  it('backs off 1, 2, 4 s… with jitter, never past 30 s', () => {
    expect(backoffMs(1, () => 0.5)).toBe(1000);
    expect(backoffMs(3, () => 0.5)).toBe(4000);
    expect(backoffMs(20, () => 1)).toBe(36_000);
    expect(backoffMs(20, () => 0)).toBe(24_000);
  });

  it('knows the same file by name, size and last-modified time', () => {
    const file = { name: 'a.mp4', size: 10, lastModified: 5 };
    expect(sameFile(file, { ...file })).toBe(true);
    expect(sameFile(file, { ...file, lastModified: 6 })).toBe(false);
    expect(sameFile(file, { ...file, size: 11 })).toBe(false);
  });

  it('measures speed over a sliding window', () => {
    const meter = new SpeedMeter(1000);
    expect(meter.sample(0, 0)).toBe(0);
    expect(meter.sample(500, 500)).toBe(1000);
    expect(meter.sample(3000, 500)).toBeLessThan(300);
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
