import { describe, expect, it } from 'vitest';
import { formatKampalaLocal } from '@filamu/shared';
import { formatTime12, from24Hour, to24Hour, type Time12 } from './time12.ts';

const cases: [Time12, string][] = [
  [{ hour: 12, minute: 0, period: 'AM' }, '00:00'],
  [{ hour: 12, minute: 30, period: 'AM' }, '00:30'],
  [{ hour: 1, minute: 5, period: 'AM' }, '01:05'],
  [{ hour: 11, minute: 59, period: 'AM' }, '11:59'],
  [{ hour: 12, minute: 0, period: 'PM' }, '12:00'],
  [{ hour: 12, minute: 30, period: 'PM' }, '12:30'],
  [{ hour: 1, minute: 0, period: 'PM' }, '13:00'],
  [{ hour: 11, minute: 59, period: 'PM' }, '23:59'],
];

describe('12-hour ↔ 24-hour expiry time', () => {
  it.each(cases)('%o is %s on a 24-hour clock, and back', (time, hhmm) => {
    expect(to24Hour(time)).toBe(hhmm);
    expect(from24Hour(hhmm)).toEqual(time);
  });

  it('round-trips every minute of the day', () => {
    for (let h = 0; h < 24; h += 1) {
      for (let m = 0; m < 60; m += 1) {
        const hhmm = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
        expect(to24Hour(from24Hour(hhmm))).toBe(hhmm);
      }
    }
  });

  it('refuses hours and minutes a 12-hour clock does not have', () => {
    expect(() => to24Hour({ hour: 0, minute: 0, period: 'AM' })).toThrow(RangeError);
    expect(() => to24Hour({ hour: 13, minute: 0, period: 'PM' })).toThrow(RangeError);
    expect(() => to24Hour({ hour: 5, minute: 60, period: 'AM' })).toThrow(RangeError);
    expect(() => to24Hour({ hour: 5.5, minute: 0, period: 'AM' })).toThrow(RangeError);
    expect(() => from24Hour('24:00')).toThrow(RangeError);
    expect(() => from24Hour('7:00')).toThrow(RangeError);
  });

  it('reads like the quick buttons', () => {
    expect(formatTime12({ hour: 11, minute: 59, period: 'PM' })).toBe('11:59 PM');
    expect(formatTime12({ hour: 12, minute: 0, period: 'AM' })).toBe('12:00 AM');
  });

  it("shows a Kampala expiry as day, month name, year and 12-hour time, whatever the viewer's time zone", () => {
    expect(formatKampalaLocal('2027-12-31T23:59')).toBe('31 Dec 2027, 11:59 PM');
    expect(formatKampalaLocal('2027-01-05T00:00')).toBe('5 Jan 2027, 12:00 AM');
    expect(formatKampalaLocal('2027-01-05T12:30')).toBe('5 Jan 2027, 12:30 PM');
  });
});
