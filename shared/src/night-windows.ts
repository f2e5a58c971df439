import { z } from 'zod';
import { kampalaDayStart } from './kampala-time.ts';

/**
 * Night bundle hours (issue 21/22): the windows in which data is sold cheaper, as the operator sets them, in Kampala
 * time (UTC+3 all year). A window may cross midnight (22:00–02:00); there may be several. Every figure here is an
 * instant (`Date`), never the phone's local time: a phone whose clock is set to another time zone still downloads in
 * Kampala's night.
 */

const MINUTES_PER_DAY = 24 * 60;
const MINUTE_MS = 60_000;

const HourMinute = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Write the time as HH:MM, from 00:00 to 23:59, Kampala time.');

export const NightWindow = z
  .object({ start: HourMinute, end: HourMinute })
  .refine((w) => w.start !== w.end, { message: 'A night window must end at another time than it starts.' });
export type NightWindow = z.infer<typeof NightWindow>;

/** Minutes after midnight of `HH:MM`. */
const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** How long a window lasts, in minutes: one crossing midnight ends the next day. */
const lengthOf = (w: NightWindow): number =>
  (minutesOf(w.end) - minutesOf(w.start) + MINUTES_PER_DAY) % MINUTES_PER_DAY;

/** Whether two windows share a minute (on any day). */
function overlap(a: NightWindow, b: NightWindow): boolean {
  const from = minutesOf(b.start) - minutesOf(a.start);
  // b's start as minutes after a's start, on a's day or the next; b overlaps if it starts inside a or a starts inside b.
  const bAfterA = (from + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  const aAfterB = (MINUTES_PER_DAY - bAfterA) % MINUTES_PER_DAY;
  return bAfterA < lengthOf(a) || aAfterB < lengthOf(b);
}

export const NightWindows = z
  .array(NightWindow)
  .min(1, 'Set at least one night window.')
  .max(4, 'At most 4 night windows.')
  .superRefine((windows, ctx) => {
    for (let i = 0; i < windows.length; i++) {
      for (let j = i + 1; j < windows.length; j++) {
        if (overlap(windows[i]!, windows[j]!)) {
          ctx.addIssue({ code: 'custom', message: 'Night windows must not overlap.', path: [j] });
          return;
        }
      }
    }
  });
export type NightWindows = z.infer<typeof NightWindows>;

/** MTN's and Airtel's night bundles: midnight to 6 am. */
export const DEFAULT_NIGHT_WINDOWS: NightWindows = [{ start: '00:00', end: '06:00' }];

/** One occurrence of a window: the instants it opens and closes. */
export interface NightSpan {
  opensAt: Date;
  closesAt: Date;
}

/** The windows' occurrences that start on the Kampala days around `at` (yesterday, today, tomorrow), in order. */
function spansAround(windows: readonly NightWindow[], at: Date): NightSpan[] {
  const today = kampalaDayStart(at).getTime();
  const spans: NightSpan[] = [];
  for (const day of [-1, 0, 1]) {
    for (const w of windows) {
      const opens = today + day * MINUTES_PER_DAY * MINUTE_MS + minutesOf(w.start) * MINUTE_MS;
      spans.push({ opensAt: new Date(opens), closesAt: new Date(opens + lengthOf(w) * MINUTE_MS) });
    }
  }
  return spans.sort((a, b) => a.opensAt.getTime() - b.opensAt.getTime());
}

/** The window open at `at`, or null by day. A window is open from its start, and closed at its end. */
export function openNightWindow(windows: readonly NightWindow[], at: Date): NightSpan | null {
  const t = at.getTime();
  return spansAround(windows, at).find((s) => s.opensAt.getTime() <= t && t < s.closesAt.getTime()) ?? null;
}

/** The window open at `at`, else the next one to open. */
export function nextNightWindow(windows: readonly NightWindow[], at: Date): NightSpan {
  const open = openNightWindow(windows, at);
  if (open) return open;
  const t = at.getTime();
  // Every window opens once a day, so tomorrow's occurrences always hold the next one.
  return spansAround(windows, at).find((s) => s.opensAt.getTime() > t)!;
}

/**
 * How many milliseconds of [from, to) fall inside the windows: the night share of a stretch of downloading (its bytes
 * are split in the same proportion when only their start and end are known).
 */
export function nightMillisBetween(windows: readonly NightWindow[], from: Date, to: Date): number {
  let total = 0;
  let at = from.getTime();
  const end = to.getTime();
  while (at < end) {
    const span = nextNightWindow(windows, new Date(at));
    const opens = Math.max(at, span.opensAt.getTime());
    if (opens >= end) break;
    const closes = Math.min(end, span.closesAt.getTime());
    total += closes - opens;
    at = closes;
  }
  return total;
}
