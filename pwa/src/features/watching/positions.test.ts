import { describe, expect, it } from 'vitest';
import { formatClock, progressPercent, resumePoint } from './positions.ts';

describe('watch positions', () => {
  it('writes clock times as people read them', () => {
    expect(formatClock(2590.7)).toBe('43:10');
    expect(formatClock(6190)).toBe('1:43:10');
    expect(formatClock(7)).toBe('0:07');
    expect(formatClock(-3)).toBe('0:00');
  });

  it('offers to resume only between the first seconds and 90 %', () => {
    expect(resumePoint(undefined)).toBeNull();
    expect(resumePoint({ positionSeconds: 3, durationSeconds: 6000 })).toBeNull();
    expect(resumePoint({ positionSeconds: 2590, durationSeconds: 6000 })).toBe(2590);
    expect(resumePoint({ positionSeconds: 5399, durationSeconds: 6000 })).toBe(5399);
    expect(resumePoint({ positionSeconds: 5400, durationSeconds: 6000 })).toBeNull();
  });

  it('rounds progress into 0–100', () => {
    expect(progressPercent(2590, 6000)).toBe(43);
    expect(progressPercent(10, 0)).toBe(0);
    expect(progressPercent(7000, 6000)).toBe(100);
  });
});
