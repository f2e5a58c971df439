import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDayMonth,
  formatMonthYear,
  formatKampalaLocal,
  formatTime,
  formatTimeLeft,
  timeLeft,
} from './dates.ts';

describe('the one date formatter', () => {
  it('writes 1 February as 1 Feb, never 01/02, in Kampala time', () => {
    expect(formatDate('2027-02-01T08:00:00Z')).toBe('1 Feb 2027');
    // 21:30 UTC on 31 December is already New Year in Kampala (UTC+3).
    expect(formatDate(new Date('2026-12-31T21:30:00Z'))).toBe('1 Jan 2027');
    expect(formatDate('2027-09-15T08:00:00Z')).toBe('15 Sep 2027');
    expect(formatDate(undefined)).toBe('N/A');
    expect(formatDate('soon')).toBe('N/A');
  });

  it("tells the time of day on Kampala's 12-hour clock", () => {
    expect(formatTime('2026-11-24T23:00:00Z')).toBe('2:00 AM');
    expect(formatTime('2026-11-24T09:05:00Z')).toBe('12:05 PM');
    expect(formatTime('2026-11-24T21:00:00Z')).toBe('12:00 AM');
    expect(formatDateTime('2026-11-24T23:00:00Z')).toBe('25 Nov 2026, 2:00 AM');
    expect(formatDateTime(null)).toBe('N/A');
  });

  it('writes a stored Kampala expiry the same way, whatever the reader’s zone', () => {
    expect(formatKampalaLocal('2027-12-31T23:59')).toBe('31 Dec 2027, 11:59 PM');
    expect(formatKampalaLocal('2027-01-02T00:00')).toBe('2 Jan 2027, 12:00 AM');
    expect(formatKampalaLocal('garbage')).toBe('garbage');
    expect(formatDayMonth('2026-11-30T22:00:00Z')).toBe('1 December');
    expect(formatMonthYear('2026-12-31T21:00:00Z')).toBe('January 2027');
    expect(formatMonthYear('2026-12-31T20:59:00Z')).toBe('December 2026');
  });

  it('counts what is left of a plan in days and hours, never rounding a night up to a day', () => {
    const now = new Date('2026-11-24T11:00:00Z');
    expect(formatTimeLeft(new Date('2026-11-24T23:00:00Z'), now)).toBe('12 hours left');
    expect(formatTimeLeft(new Date('2026-11-24T12:00:00Z'), now)).toBe('1 hour left');
    expect(formatTimeLeft(new Date('2026-11-24T11:40:00Z'), now)).toBe('less than an hour left');
    expect(formatTimeLeft(new Date('2026-12-01T16:30:00Z'), now)).toBe('7 days 5 hours left');
    expect(formatTimeLeft(new Date('2026-11-25T11:00:00Z'), now)).toBe('1 day left');
    expect(formatTimeLeft(new Date('2026-11-24T10:00:00Z'), now)).toBe('ended');
    expect(timeLeft(new Date('2026-11-26T13:00:00Z'), now)).toMatchObject({ days: 2, hours: 2 });
  });
});
