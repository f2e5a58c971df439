import type { DailyFigures } from '@filamu/shared';

const DAY_MS = 86_400_000;

export interface WeeklyFigure {
  /** Monday of the Kampala week, YYYY-MM-DD. */
  weekStart: string;
  /** How many of the week's days fall inside the series (under 7 for the first and last weeks of a range). */
  days: number;
  newSubscribers: number;
}

/**
 * The Monday (YYYY-MM-DD) of the week a Kampala calendar day belongs to. The server's `date` is already a
 * Kampala calendar day, so this is calendar arithmetic on the date itself: no time zone enters.
 */
export function mondayOf(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

/** Sums daily new subscribers into Monday-start Kampala weeks, oldest first; days are in date order. */
export function weeklyNewSubscribers(daily: readonly Pick<DailyFigures, 'date' | 'newSubscribers'>[]): WeeklyFigure[] {
  const weeks: WeeklyFigure[] = [];
  for (const { date, newSubscribers } of daily) {
    const weekStart = mondayOf(date);
    const last = weeks.at(-1);
    if (last?.weekStart === weekStart) {
      last.days += 1;
      last.newSubscribers += newSubscribers;
    } else {
      weeks.push({ weekStart, days: 1, newSubscribers });
    }
  }
  return weeks;
}
