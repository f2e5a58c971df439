import { describe, expect, it } from 'vitest';
import {
  changeTakesEffectAt,
  DEFAULT_NIGHT_SCHEDULE,
  type NightSchedule,
  nextWindowAt,
  nightBytesOf,
  openWindowAt,
  settingAt,
  settingForNext,
} from './schedule.ts';

/** An instant given as Kampala wall time (UTC+3). */
const kampala = (local: string) => new Date(`${local}:00+03:00`);
const MB = 1_000_000;

const midnightToSix = { nightPricePerGbUgx: 2000, windows: [{ start: '00:00', end: '06:00' }] };
const tenToTwo = { nightPricePerGbUgx: 1500, windows: [{ start: '22:00', end: '02:00' }] };

describe('the night bytes of a stretch of downloading', () => {
  it('counts a stretch inside the window whole, one outside not at all, and one instant by whether it is open', () => {
    const s = DEFAULT_NIGHT_SCHEDULE;
    expect(nightBytesOf(s, 50 * MB, kampala('2026-11-30T01:00'), kampala('2026-11-30T01:10'))).toBe(50 * MB);
    expect(nightBytesOf(s, 50 * MB, kampala('2026-11-30T07:00'), kampala('2026-11-30T07:10'))).toBe(0);
    expect(nightBytesOf(s, 50 * MB, kampala('2026-11-30T03:00'), kampala('2026-11-30T03:00'))).toBe(50 * MB);
    expect(nightBytesOf(s, 50 * MB, kampala('2026-11-30T06:00'), kampala('2026-11-30T06:00'))).toBe(0);
  });

  it('counts only the part after the window opens of a stretch that runs across its start, and before its end', () => {
    const s = DEFAULT_NIGHT_SCHEDULE;
    // 23:50 to 00:10: half of it at night.
    expect(nightBytesOf(s, 40 * MB, kampala('2026-11-29T23:50'), kampala('2026-11-30T00:10'))).toBe(20 * MB);
    // 05:45 to 06:15: the first half.
    expect(nightBytesOf(s, 30 * MB, kampala('2026-11-30T05:45'), kampala('2026-11-30T06:15'))).toBe(15 * MB);
  });

  it('keeps the hours of a window under way when the operator changes them, and uses the new ones after it', () => {
    // Saved at 01:00 while 00:00–06:00 is open: the change waits for 06:00.
    const at = kampala('2026-11-30T01:00');
    const changesAt = changeTakesEffectAt(midnightToSix, tenToTwo, at);
    expect(changesAt).toEqual(kampala('2026-11-30T06:00'));
    const s: NightSchedule = { latest: tenToTwo, before: midnightToSix, changesAt };
    expect(openWindowAt(s, kampala('2026-11-30T03:00'))).toEqual({
      opensAt: kampala('2026-11-30T00:00'),
      closesAt: kampala('2026-11-30T06:00'),
    });
    expect(settingAt(s, kampala('2026-11-30T05:59')).nightPricePerGbUgx).toBe(2000);
    // The next window is the new one, tonight at 22:00, at the new price.
    expect(nextWindowAt(s, kampala('2026-11-30T03:00')).closesAt).toEqual(kampala('2026-11-30T06:00'));
    expect(nextWindowAt(s, kampala('2026-11-30T07:00'))).toEqual({
      opensAt: kampala('2026-11-30T22:00'),
      closesAt: kampala('2026-12-01T02:00'),
    });
    expect(settingForNext(s, kampala('2026-11-30T07:00')).nightPricePerGbUgx).toBe(1500);
    // Bytes from 05:00 to 23:00: the hour to 06:00 under the old hours, the hour from 22:00 under the new.
    expect(nightBytesOf(s, 18 * MB, kampala('2026-11-30T05:00'), kampala('2026-11-30T23:00'))).toBe(2 * MB);
  });

  it('takes a change at once by day, and never starts the new hours half-way through one of their windows', () => {
    expect(changeTakesEffectAt(midnightToSix, tenToTwo, kampala('2026-11-30T12:00'))).toEqual(
      kampala('2026-11-30T12:00'),
    );
    // At 23:00 the new 22:00–02:00 window would be open already: the change waits for its end.
    expect(changeTakesEffectAt(midnightToSix, tenToTwo, kampala('2026-11-29T23:00'))).toEqual(
      kampala('2026-11-30T06:00'),
    );
    // Windows that together leave no gap keep only the window under way.
    const allDay = { nightPricePerGbUgx: 100, windows: [{ start: '06:00', end: '00:00' }] };
    expect(changeTakesEffectAt(midnightToSix, allDay, kampala('2026-11-30T03:00'))).toEqual(
      kampala('2026-11-30T06:00'),
    );
  });
});
