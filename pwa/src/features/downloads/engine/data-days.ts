import { kampalaDate, kampalaMonth, kampalaMonthStart } from '@filamu/shared';
import type { LocalDownload } from './record.ts';

/**
 * The data this phone received for one person's downloads on one Kampala day (decision 0216): a running total per
 * day, added to in the same IndexedDB transaction that records a download's bytes, never a row per chunk. It
 * outlives the downloads themselves — deleting a film does not give the data back.
 */
export interface DataDay {
  /** `${ownerId}|${day}`. */
  key: string;
  ownerId: string;
  /** The Kampala calendar day, `YYYY-MM-DD`. */
  day: string;
  /** Bytes received from the network that day, re-fetched ones included. */
  bytes: number;
  /** Of `bytes`, those received inside a night window for a film downloaded tonight (absent before issue 21/22). */
  nightBytes?: number;
}

export function dataDayKey(ownerId: string, day: string): string {
  return `${ownerId}|${day}`;
}

/**
 * Bytes a record change says arrived from the network: the growth of its `bytesFromNetwork`, the same count as the
 * download's own "Used X of data". Never negative (a record started again from nothing counts from there).
 */
export function bytesReceived(before: Pick<LocalDownload, 'bytesFromNetwork'>, after: typeof before): number {
  const grown = after.bytesFromNetwork - before.bytesFromNetwork;
  return Number.isFinite(grown) && grown > 0 ? grown : 0;
}

/** Bytes a record change says arrived inside a night window (the growth of its `nightBytes`). */
export function nightBytesReceived(before: Pick<LocalDownload, 'nightBytes'>, after: typeof before): number {
  const grown = (after.nightBytes ?? 0) - (before.nightBytes ?? 0);
  return Number.isFinite(grown) && grown > 0 ? grown : 0;
}

/** The day's row with `bytes` more (`nightBytes` of them at night), attributed to the Kampala day of `at` (ms). */
export function withBytes(
  row: DataDay | undefined,
  ownerId: string,
  at: number,
  bytes: number,
  nightBytes = 0,
): DataDay {
  const day = kampalaDate(new Date(at));
  const same = row?.day === day && row.ownerId === ownerId;
  const night = (same ? (row.nightBytes ?? 0) : 0) + nightBytes;
  return {
    key: dataDayKey(ownerId, day),
    ownerId,
    day,
    bytes: (same ? row.bytes : 0) + bytes,
    ...(night > 0 ? { nightBytes: night } : {}),
  };
}

export interface DataUse {
  /** `YYYY-MM` of the current Kampala month. */
  month: string;
  monthBytes: number;
  /** Of `monthBytes`, those received at night prices. */
  monthNightBytes: number;
  /** This month's days that used data, most recent first. */
  days: Array<{ day: string; bytes: number }>;
  /** `YYYY-MM` of the month before. */
  lastMonth: string;
  lastMonthBytes: number;
  lastMonthNightBytes: number;
}

/** This Kampala month's total and days, and last month's total, from a person's day rows. */
export function summarizeDataUse(rows: readonly DataDay[], now: number): DataUse {
  const today = new Date(now);
  const month = kampalaMonth(today);
  // The instant before this month began is in last month, whatever its length.
  const lastMonth = kampalaMonth(new Date(kampalaMonthStart(today).getTime() - 1));
  const days = rows
    .filter((r) => r.day.slice(0, 7) === month && r.bytes > 0)
    .map((r) => ({ day: r.day, bytes: r.bytes }))
    .sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : 0));
  const inMonth = (m: string) => rows.filter((r) => r.day.slice(0, 7) === m);
  const total = (m: string) => inMonth(m).reduce((sum, r) => sum + r.bytes, 0);
  const night = (m: string) => inMonth(m).reduce((sum, r) => sum + (r.nightBytes ?? 0), 0);
  return {
    month,
    monthBytes: total(month),
    monthNightBytes: night(month),
    days,
    lastMonth,
    lastMonthBytes: total(lastMonth),
    lastMonthNightBytes: night(lastMonth),
  };
}
