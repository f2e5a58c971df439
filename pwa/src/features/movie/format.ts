import { catalogT } from './messages.ts';

/** Display rules of the movie pages (product §9). Words go through the `catalog` messages, read at call time. */

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** Product §9: movie sizes in GB (bytes / 1024³) with two decimals: `1.50 GB`. */
export function formatGb(bytes: number): string {
  const value = Number.isFinite(bytes) && bytes > 0 ? bytes / GIB : 0;
  return `${value.toFixed(2)} GB`;
}

/** A VJ's name as people say it: "VJ Ice P" stays, a bare "Junior" becomes "VJ Junior". */
export function vjName(vj: string): string {
  const name = vj.trim();
  return /^vj\b/i.test(name) ? name : `VJ ${name}`;
}

/** The VJ as a label: names usually carry the prefix already ('VJ Junior'); others get it ('VJ: N/A'). */
export function vjLabel(vj: string): string {
  const name = vj.trim() || 'N/A';
  return /^vj\b/i.test(name) ? name : `VJ: ${name}`;
}

/** A transfer speed: `1.2 MB/s`, or `350 KB/s` below 0.1 MB/s. */
export function formatSpeed(bytesPerSecond: number): string {
  if (bytesPerSecond < 0.1 * MIB) return `${Math.max(1, Math.round(bytesPerSecond / 1024))} KB/s`;
  return `${(bytesPerSecond / MIB).toFixed(1)} MB/s`;
}

/** A rough duration for people: 'less than a minute', '12 min', '1 h 5 min', '3 h'. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return catalogT('catalog.duration.unknown');
  if (seconds < 60) return catalogT('catalog.duration.underMinute');
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return hoursMinutes(hours, rest);
}

/** `12 min`, `3 h`, `1 h 5 min`, in the active language. */
function hoursMinutes(hours: number, minutes: number): string {
  if (hours === 0) return catalogT('catalog.duration.minutes', { minutes });
  return minutes === 0
    ? catalogT('catalog.duration.hours', { hours })
    : catalogT('catalog.duration.hoursMinutes', { hours, minutes });
}

/** A film's running time (the shared `formatRunningTime`'s rounding), in the active language: `1 h 45 min`. */
export function formatRunningTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 30) return catalogT('catalog.runningTime.short');
  const minutes = Math.round(seconds / 60);
  return hoursMinutes(Math.floor(minutes / 60), minutes % 60);
}

/** The estimate as a sentence start: 'Less than a minute', 'About 35 min'. */
export function formatEstimate(seconds: number): string {
  if (!Number.isFinite(seconds)) return catalogT('catalog.estimate.unknown');
  return seconds < 60
    ? catalogT('catalog.estimate.underMinute')
    : catalogT('catalog.estimate.about', { duration: formatDuration(seconds) });
}
