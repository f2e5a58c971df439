import { formatBytes } from '@filamu/shared';
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
      return 'Paused';
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

/** Time left at the current speed: `Less than a minute left`, `12 min left`, `1 h 5 min left`. */
export function formatTimeLeft(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 1) return 'Less than a minute left';
  if (minutes < 60) return `${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min left` : `${hours} h left`;
}

/** Unfinished downloads first (oldest first, as queued), then finished ones, newest first. */
export function displayOrder(records: LocalDownload[]): LocalDownload[] {
  const finished = (r: LocalDownload) => r.state === 'complete';
  return [...records].sort((a, b) => {
    if (finished(a) !== finished(b)) return finished(a) ? 1 : -1;
    return finished(a) ? (b.completedAt ?? 0) - (a.completedAt ?? 0) : a.createdAt - b.createdAt;
  });
}
