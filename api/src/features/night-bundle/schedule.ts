import {
  DEFAULT_NIGHT_PRICE_PER_GB_UGX,
  DEFAULT_NIGHT_WINDOWS,
  type NightBundleSetting,
  type NightSpan,
  nextNightWindow,
  nightMillisBetween,
  openNightWindow,
} from '@filamu/shared';

/**
 * The night bundle over time (decision 0255): the setting the operator saved last, and — until it takes effect, when
 * the night window open at the time of the change has closed — the one before it. A change never opens, closes or
 * reprices a window already under way: every figure here asks which setting is in force at the instant in question.
 */
export interface NightSchedule {
  latest: NightBundleSetting;
  /** In force until `changesAt`; null once the latest setting is. */
  before: NightBundleSetting | null;
  changesAt: Date | null;
}

export const DEFAULT_NIGHT_BUNDLE: NightBundleSetting = {
  nightPricePerGbUgx: DEFAULT_NIGHT_PRICE_PER_GB_UGX,
  windows: DEFAULT_NIGHT_WINDOWS,
};

export const DEFAULT_NIGHT_SCHEDULE: NightSchedule = { latest: DEFAULT_NIGHT_BUNDLE, before: null, changesAt: null };

/** The setting in force at `at`. */
export function settingAt(schedule: NightSchedule, at: Date): NightBundleSetting {
  const { before, changesAt } = schedule;
  return before && changesAt && at.getTime() < changesAt.getTime() ? before : schedule.latest;
}

/** The night window open at `at` under the setting in force then, or null by day. */
export function openWindowAt(schedule: NightSchedule, at: Date): NightSpan | null {
  return openNightWindow(settingAt(schedule, at).windows, at);
}

/**
 * The window open at `at`, else the next to open — under the setting in force when it opens (a change waiting for
 * the window under way takes over after it).
 */
export function nextWindowAt(schedule: NightSchedule, at: Date): NightSpan {
  const span = nextNightWindow(settingAt(schedule, at).windows, at);
  const { before, changesAt } = schedule;
  if (!before || !changesAt || span.opensAt.getTime() < changesAt.getTime()) return span;
  // At `changesAt` no window of either setting is open (changeTakesEffectAt), so the latest's next one is whole.
  return nextNightWindow(schedule.latest.windows, changesAt.getTime() > at.getTime() ? changesAt : at);
}

/** The setting that governs the window open at `at` or the next one: what a phone plans tonight by. */
export function settingForNext(schedule: NightSchedule, at: Date): NightBundleSetting {
  return settingAt(schedule, nextWindowAt(schedule, at).opensAt);
}

/** Milliseconds of [from, to) inside a night window, each instant under the setting in force then. */
export function nightMillisIn(schedule: NightSchedule, from: Date, to: Date): number {
  const { before, changesAt } = schedule;
  if (!before || !changesAt || changesAt.getTime() <= from.getTime()) {
    return nightMillisBetween(settingAt(schedule, from).windows, from, to);
  }
  if (to.getTime() <= changesAt.getTime()) return nightMillisBetween(before.windows, from, to);
  return (
    nightMillisBetween(before.windows, from, changesAt) + nightMillisBetween(schedule.latest.windows, changesAt, to)
  );
}

/**
 * The share (0–1) of [from, to] inside a night window: 1 or 0 when the stretch has no length (one instant, open or
 * not).
 */
export function nightShareOf(schedule: NightSchedule, from: Date, to: Date): number {
  const length = to.getTime() - from.getTime();
  if (length <= 0) return openWindowAt(schedule, to) ? 1 : 0;
  return nightMillisIn(schedule, from, to) / length;
}

/**
 * Of `bytes` fetched over [from, to], those fetched at night: the stretch's bytes are taken as evenly spread over it,
 * which holds for the short stretches a download is counted in (decision 0255).
 */
export function nightBytesOf(schedule: NightSchedule, bytes: number, from: Date, to: Date): number {
  if (bytes <= 0) return 0;
  return Math.round(bytes * nightShareOf(schedule, from, to));
}

/** Enough steps for any two settings of at most four windows each; each step moves past a whole window. */
const MAX_STEPS = 32;

/**
 * When a setting saved at `now` takes effect: now, unless a window is open under the setting in force or under the new
 * one — then when it closes, and again while the other setting has a window open at that instant, so a window is
 * never cut short or started half-way by a change.
 */
export function changeTakesEffectAt(inForce: NightBundleSetting, next: NightBundleSetting, now: Date): Date {
  let at = now;
  for (let step = 0; step < MAX_STEPS; step++) {
    const open = openNightWindow(inForce.windows, at) ?? openNightWindow(next.windows, at);
    if (!open) return at;
    at = open.closesAt;
  }
  // The two settings' windows leave no gap between them (night all day, in turns): the window under way is kept.
  return openNightWindow(inForce.windows, now)?.closesAt ?? now;
}
