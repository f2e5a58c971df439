import type { ReminderKind } from './channels.ts';

/**
 * When each reminder is due (decision 0150), in Kampala time (UTC+3 all year). A plan's last day is the day of its
 * last millisecond of access; "ends today" is due at 08:00 that day (or at its start, when access ends before 08:00),
 * "ends in 3 days" three days earlier, until "ends today" is due. Nothing is sent at night for a period that began
 * long before.
 */
const KAMPALA_OFFSET_MS = 3 * 3_600_000;
const DAY_MS = 86_400_000;
const SEND_FROM_HOUR = 8;
const DAYS_BEFORE = 3;

const kampalaDayStart = (local: number) => local - (((local % DAY_MS) + DAY_MS) % DAY_MS);

/** When the "ends today" reminder of a period ending at `end` is due. */
function dueToday(end: Date): Date {
  const lastDay = kampalaDayStart(end.getTime() - 1 + KAMPALA_OFFSET_MS);
  const morning = lastDay + SEND_FROM_HOUR * 3_600_000;
  return new Date((morning < end.getTime() + KAMPALA_OFFSET_MS ? morning : lastDay) - KAMPALA_OFFSET_MS);
}

export function dueAt(kind: ReminderKind, end: Date): Date {
  const today = dueToday(end);
  return kind === 'plan_ends_today' ? today : new Date(today.getTime() - DAYS_BEFORE * DAY_MS);
}

/** The latest end whose "ends today" reminder is due at `at` (dueToday is monotonic in the end). */
function latestEndDueToday(at: Date): Date {
  const local = at.getTime() + KAMPALA_OFFSET_MS;
  const start = kampalaDayStart(local);
  const morning = start + SEND_FROM_HOUR * 3_600_000;
  return new Date((local >= morning ? start + DAY_MS : morning) - KAMPALA_OFFSET_MS);
}

/** The subscription ends, (after, upTo], whose reminder of this kind is due now and not yet past. */
export function dueEnds(kind: ReminderKind, now: Date): { after: Date; upTo: Date } {
  const today = latestEndDueToday(now);
  if (kind === 'plan_ends_today') return { after: now, upTo: today };
  return { after: today, upTo: latestEndDueToday(new Date(now.getTime() + DAYS_BEFORE * DAY_MS)) };
}
