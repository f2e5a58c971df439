import { formatBytes, formatMonthYear, kampalaDate } from '@filamu/shared';
import type { LocalDownload } from './engine/record.ts';

/** The state of a download on this device, in words for the person. */
export function stateWords(record: Pick<LocalDownload, 'state' | 'message'>): string {
  switch (record.state) {
    case 'queued':
      return 'Queued';
    case 'downloading':
      return 'Downloading';
    case 'waiting-network':
      // 'Waiting for Wi-Fi' when the person asked for Wi-Fi only.
      return record.message ?? 'Waiting for network';
    case 'paused':
      // A film for tonight says it waits for the night bundle, or why it stopped.
      return record.message ?? 'Paused';
    case 'needs-url':
      return 'Reconnecting';
    case 'needs-space':
      return record.message ?? 'Not enough space on this phone. Free some space, then resume.';
    case 'verifying':
      return 'Finishing';
    case 'complete':
      return 'Downloaded';
    case 'failed':
      return `Failed: ${record.message ?? 'Something went wrong.'}`;
    case 'cancelled':
      return 'Cancelled';
  }
}

/** `1.5 MB/s`. */
export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** Unfinished downloads first (oldest first, as queued), then finished ones, newest first. */
export function displayOrder(records: LocalDownload[]): LocalDownload[] {
  const finished = (r: LocalDownload) => r.state === 'complete';
  return [...records].sort((a, b) => {
    if (finished(a) !== finished(b)) return finished(a) ? 1 : -1;
    return finished(a) ? (b.completedAt ?? 0) - (a.completedAt ?? 0) : a.createdAt - b.createdAt;
  });
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A Kampala day (`YYYY-MM-DD`) in a list of days: `Today`, `Yesterday`, else `Wed 25 Nov`. */
export function dayWords(day: string, now: number): string {
  const today = kampalaDate(new Date(now));
  if (day === today) return 'Today';
  if (day === kampalaDate(new Date(now - 86_400_000))) return 'Yesterday';
  // Noon UTC of that date: its UTC getters give the calendar day itself, whatever the device's zone.
  const date = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return `${WEEKDAYS[date.getUTCDay()]} ${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]}`;
}

/** A Kampala month (`YYYY-MM`) as `November 2026`. */
export function monthWords(month: string): string {
  return formatMonthYear(`${month}-15T12:00:00+03:00`);
}
