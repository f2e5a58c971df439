import { describe, expect, it } from 'vitest';
import { compactUgx, formatCount, shortDay } from './format.ts';
import { parseRange } from './range.ts';

describe('parseRange', () => {
  it('takes 7, 30 or 90 from the URL and falls back to 30', () => {
    expect(parseRange('7')).toBe(7);
    expect(parseRange('90')).toBe(90);
    expect(parseRange(null)).toBe(30);
    expect(parseRange('365')).toBe(30);
    expect(parseRange('abc')).toBe(30);
  });
});

describe('chart labels', () => {
  it('formats figures with en-UG separators and days as short dates', () => {
    expect(formatCount(1500000)).toBe('1,500,000');
    expect(compactUgx(25000)).toBe('25K');
    expect(compactUgx(1_500_000)).toBe('1.5M');
    expect(compactUgx(900)).toBe('900');
    expect(shortDay('2026-11-23')).toBe('Nov 23');
  });
});
