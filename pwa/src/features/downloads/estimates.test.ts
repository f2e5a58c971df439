import { describe, expect, it } from 'vitest';
import { formatSpeed } from '../movie/format.ts';
import { estimateSeconds, SPACE_MARGIN_BYTES, spaceVerdict, TYPICAL_3G_BPS } from './estimates.ts';

describe('TYPICAL_3G_BPS', () => {
  it('assumes 0.5 MB/s before a speed is measured', () => {
    expect(TYPICAL_3G_BPS).toBe(524_288);
    expect(formatSpeed(TYPICAL_3G_BPS)).toBe('0.5 MB/s');
  });
});

describe('estimateSeconds', () => {
  it('estimates seconds from bytes and speed', () => {
    expect(estimateSeconds(1024 ** 3, TYPICAL_3G_BPS)).toBe(2048);
    expect(estimateSeconds(0, TYPICAL_3G_BPS)).toBe(0);
    expect(estimateSeconds(100, 0)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('spaceVerdict', () => {
  const GB = 1024 ** 3;

  it('needs the rest of the movie plus the margin', () => {
    expect(spaceVerdict(GB, 0, 2 * GB)).toEqual({ needed: GB, free: 2 * GB, fits: true });
    expect(spaceVerdict(GB, 0, GB + SPACE_MARGIN_BYTES)).toMatchObject({ fits: true });
    expect(spaceVerdict(GB, 0, GB + SPACE_MARGIN_BYTES - 1)).toMatchObject({ fits: false });
    expect(spaceVerdict(GB, 0, 0.5 * GB)).toMatchObject({ needed: GB, fits: false });
  });

  it('counts the bytes already on the phone', () => {
    expect(spaceVerdict(GB, 0.75 * GB, 0.5 * GB)).toMatchObject({ needed: 0.25 * GB, fits: true });
    expect(spaceVerdict(GB, 2 * GB, 0)).toMatchObject({ needed: 0 });
  });

  it('does not guess when the browser gives no figure', () => {
    expect(spaceVerdict(GB, 0, null)).toEqual({ needed: GB, free: null, fits: null });
  });
});
