import { describe, expect, it } from 'vitest';
import {
  daysRemaining,
  formatBytes,
  formatDate,
  formatLastDownload,
  formatRunningTime,
  formatUgx,
  groupDigits,
} from './format.ts';

describe('formatting', () => {
  it('shows UGX with en-UG thousands separators and no decimals', () => {
    expect(formatUgx(25000)).toBe('UGX 25,000');
    expect(formatUgx('1500000')).toBe('UGX 1,500,000');
    expect(formatUgx(0)).toBe('UGX 0');
  });

  it('groups digits as the en-UG and en-US number formatters do, without starting one', () => {
    const values = [0, 7, 999, 1000, 1700, 25_000, 99_999, 100_000, 1_234_567, 1_000_000_000, 2.5, 1499.5, 0.4, -3500];
    for (const locale of ['en-UG', 'en-US']) {
      const intl = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
      expect(values.map(groupDigits)).toEqual(values.map((v) => intl.format(v)));
    }
    expect(groupDigits(Number.NaN)).toBe('NaN');
  });

  it('shows dates as day, short month and year in Kampala time', () => {
    expect(formatDate('2026-12-31T21:30:00.000Z')).toBe('1 Jan 2027');
    expect(formatDate('not a date')).toBe('N/A');
    expect(formatDate(null)).toBe('N/A');
  });

  it('counts whole days remaining, rounding up and never below zero', () => {
    const now = new Date('2026-11-22T09:00:00Z');
    expect(daysRemaining(new Date('2026-11-29T09:00:00Z'), now)).toBe(7);
    expect(daysRemaining(new Date('2026-11-22T10:00:00Z'), now)).toBe(1);
    expect(daysRemaining(new Date('2026-11-21T10:00:00Z'), now)).toBe(0);
  });

  it('shows sizes in steps of 1024 with one decimal', () => {
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatBytes(512)).toBe('512 Bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1.25 * 1024 ** 3)).toBe('1.3 GB');
    expect(formatBytes(3 * 1024 ** 4)).toBe('3.0 TB');
  });

  it("words the last download as Never, 'Less than an hour ago', 'N hours ago' under a day, else the date", () => {
    const now = new Date('2026-11-22T09:00:00Z');
    expect(formatLastDownload(null, now)).toBe('Never');
    expect(formatLastDownload('2026-11-22T06:30:00Z', now)).toBe('2 hours ago');
    expect(formatLastDownload('2026-11-22T08:00:00Z', now)).toBe('1 hour ago');
    expect(formatLastDownload('2026-11-22T08:30:00Z', now)).toBe('Less than an hour ago');
    expect(formatLastDownload('2026-11-20T09:00:00Z', now)).toBe('20 Nov 2026');
  });
});

describe('formatRunningTime', () => {
  it('reads a running time in hours and whole minutes', () => {
    expect(formatRunningTime(5520)).toBe('1 h 32 min');
    expect(formatRunningTime(2700)).toBe('45 min');
    expect(formatRunningTime(7200)).toBe('2 h');
    expect(formatRunningTime(12)).toBe('under 1 min');
    expect(formatRunningTime(89)).toBe('1 min');
  });
});
