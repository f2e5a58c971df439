import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_NIGHT_WINDOWS,
  NightWindows,
  nextNightWindow,
  nightMillisBetween,
  openNightWindow,
} from './night-windows.ts';

/** An instant given as Kampala wall time (UTC+3). */
const kampala = (local: string) => new Date(`${local}:00+03:00`);
const HOUR = 3_600_000;

describe('night bundle windows, in Kampala time', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('opens at midnight and closes at six by default, whatever the phone’s own time zone', () => {
    const phoneHours: number[] = [];
    for (const tz of ['Africa/Kampala', 'UTC', 'America/New_York', 'Asia/Kolkata']) {
      vi.stubEnv('TZ', tz);
      // 23:30 in Kampala is 15:30 on a phone set to New York: still the evening before tonight's window.
      const evening = kampala('2026-11-29T23:30');
      phoneHours.push(evening.getHours());
      expect(openNightWindow(DEFAULT_NIGHT_WINDOWS, evening), tz).toBeNull();
      expect(nextNightWindow(DEFAULT_NIGHT_WINDOWS, evening), tz).toEqual({
        opensAt: kampala('2026-11-30T00:00'),
        closesAt: kampala('2026-11-30T06:00'),
      });
      expect(openNightWindow(DEFAULT_NIGHT_WINDOWS, kampala('2026-11-30T05:59')), tz).toEqual({
        opensAt: kampala('2026-11-30T00:00'),
        closesAt: kampala('2026-11-30T06:00'),
      });
      // Open from its start, closed at its end.
      expect(openNightWindow(DEFAULT_NIGHT_WINDOWS, kampala('2026-11-30T00:00')), tz).not.toBeNull();
      expect(openNightWindow(DEFAULT_NIGHT_WINDOWS, kampala('2026-11-30T06:00')), tz).toBeNull();
    }
    // The phone's clock really was in each zone: its own hour of that instant differed.
    expect(phoneHours).toEqual([23, 20, 15, 2]);
  });

  it('takes a window across midnight from either side of it', () => {
    const late = [{ start: '22:00', end: '02:00' }];
    const span = { opensAt: kampala('2026-11-29T22:00'), closesAt: kampala('2026-11-30T02:00') };
    expect(openNightWindow(late, kampala('2026-11-29T23:15'))).toEqual(span);
    expect(openNightWindow(late, kampala('2026-11-30T01:45'))).toEqual(span);
    expect(openNightWindow(late, kampala('2026-11-30T02:00'))).toBeNull();
    expect(nextNightWindow(late, kampala('2026-11-30T02:00')).opensAt).toEqual(kampala('2026-11-30T22:00'));
  });

  it('finds the next of several windows, and the first of tomorrow after the last of today', () => {
    const two = [
      { start: '00:00', end: '05:00' },
      { start: '13:00', end: '14:00' },
    ];
    expect(nextNightWindow(two, kampala('2026-11-29T09:00')).opensAt).toEqual(kampala('2026-11-29T13:00'));
    expect(nextNightWindow(two, kampala('2026-11-29T13:30')).closesAt).toEqual(kampala('2026-11-29T14:00'));
    expect(nextNightWindow(two, kampala('2026-11-29T14:00')).opensAt).toEqual(kampala('2026-11-30T00:00'));
  });

  it('counts the night part of a download that runs into, through and out of windows', () => {
    const windows = DEFAULT_NIGHT_WINDOWS;
    // Started at 23:00, ran 2 hours: the window opened while it ran, so one hour of it was at night.
    expect(nightMillisBetween(windows, kampala('2026-11-29T23:00'), kampala('2026-11-30T01:00'))).toBe(HOUR);
    // 05:00–07:00: the window closed at 06:00 while it ran.
    expect(nightMillisBetween(windows, kampala('2026-11-30T05:00'), kampala('2026-11-30T07:00'))).toBe(HOUR);
    // Two whole nights and the day between.
    expect(nightMillisBetween(windows, kampala('2026-11-29T23:00'), kampala('2026-12-01T07:00'))).toBe(12 * HOUR);
    // All day: none.
    expect(nightMillisBetween(windows, kampala('2026-11-30T08:00'), kampala('2026-11-30T20:00'))).toBe(0);
    // An empty or backwards stretch: none.
    expect(nightMillisBetween(windows, kampala('2026-11-30T02:00'), kampala('2026-11-30T02:00'))).toBe(0);
    expect(nightMillisBetween(windows, kampala('2026-11-30T03:00'), kampala('2026-11-30T02:00'))).toBe(0);
  });

  it('refuses windows an operator could not mean: overlapping, empty, malformed, too many', () => {
    expect(NightWindows.safeParse([{ start: '00:00', end: '06:00' }]).success).toBe(true);
    expect(
      NightWindows.safeParse([
        { start: '22:00', end: '02:00' },
        { start: '13:00', end: '14:00' },
      ]).success,
    ).toBe(true);
    const overlapping = NightWindows.safeParse([
      { start: '22:00', end: '02:00' },
      { start: '01:00', end: '05:00' },
    ]);
    expect(overlapping.error?.issues[0]?.message).toBe('Night windows must not overlap.');
    // Touching is not overlapping: one ends as the next starts.
    expect(
      NightWindows.safeParse([
        { start: '00:00', end: '03:00' },
        { start: '03:00', end: '06:00' },
      ]).success,
    ).toBe(true);
    expect(NightWindows.safeParse([{ start: '06:00', end: '06:00' }]).error?.issues[0]?.message).toBe(
      'A night window must end at another time than it starts.',
    );
    expect(NightWindows.safeParse([{ start: '24:00', end: '06:00' }]).success).toBe(false);
    expect(NightWindows.safeParse([{ start: '0:00', end: '06:00' }]).success).toBe(false);
    expect(NightWindows.safeParse([]).success).toBe(false);
    const five = ['00', '03', '06', '09', '12'].map((h) => ({ start: `${h}:00`, end: `${h}:30` }));
    expect(NightWindows.safeParse(five).success).toBe(false);
  });
});
