import type { Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { type NightSchedule, nextWindowAt, nightBytesOf, nightShareOf, openWindowAt } from './schedule.ts';
import { nightSchedule, pricesNow } from './settings.ts';

// What other features count night bytes and night savings with (issue 21/22 §5, decision 0255): the downloads
// feature as it writes the bytes it served, the analytics as they sum them.

/** Bytes served over one stretch of time: from the previous count of the same response (or its start) to now. */
export interface FetchStretch {
  bytes: number;
  from: Date;
  to: Date;
}

/** Of these stretches' bytes, those served inside a night window, by the server's clock and the windows then. */
export function nightBytesOfStretches(schedule: NightSchedule, stretches: readonly FetchStretch[]): number {
  return stretches.reduce((sum, s) => sum + nightBytesOf(schedule, s.bytes, s.from, s.to), 0);
}

/** How long a process trusts the night schedule it read before reading it again. */
const SCHEDULE_FRESH_MS = 60_000;

/**
 * The night schedule as this process last read it, and the instants the night begins or ends: a response under way
 * cuts its count there, so a window that opens while a film downloads counts only the bytes sent after it opened
 * (decision 0255). A stale or missing read only makes the count coarser (a stretch split by its time), never wrong.
 */
export class NightBoundaries {
  private read: { schedule: NightSchedule; at: number } | null = null;
  private loading: Promise<NightSchedule> | null = null;

  constructor(private readonly deps: { database: { db: Executor }; clock: Clock }) {}

  /** Reads the schedule now (a write of bytes does, and so keeps the cached one fresh). */
  async schedule(): Promise<NightSchedule> {
    this.loading ??= nightSchedule(this.deps.database.db)
      .then((schedule) => {
        this.read = { schedule, at: this.deps.clock.now().getTime() };
        return schedule;
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  /** The next instant after `from` at which a night window opens or closes; null until the schedule is read. */
  boundaryAfter(from: Date): Date | null {
    const now = this.deps.clock.now().getTime();
    if (!this.read || now - this.read.at > SCHEDULE_FRESH_MS) {
      // Read in the background: the caller asks again at its next report.
      this.schedule().catch(() => {});
    }
    if (!this.read) return null;
    const open = openWindowAt(this.read.schedule, from);
    return open ? open.closesAt : nextWindowAt(this.read.schedule, from).opensAt;
  }
}

/** The share (0–1) of the time from `from` to `to` inside a night window (1 or 0 when they are the same instant). */
export async function nightShareBetween(exec: Executor, from: Date, to: Date): Promise<number> {
  return nightShareOf(await nightSchedule(exec), from, to);
}

/**
 * What `nightBytes` saved their people: the difference between the day and the night price per GB (10⁹ bytes) in
 * force now, never below 0 (a night price set above the day price saves nothing), rounded to the UGX.
 */
export async function nightSavingsUgx(exec: Executor, nightBytes: number, now: Date): Promise<number> {
  const { day, night } = await pricesNow(exec, now);
  return Math.round((nightBytes * Math.max(0, day - night)) / 1e9);
}
