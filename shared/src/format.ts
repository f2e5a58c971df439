import { formatDate } from './dates.ts';

export * from './dates.ts';

/** UGX amounts are whole numbers shown with en-UG thousands separators: `UGX 25,000`. */
export function formatUgx(amount: number | string): string {
  return `UGX ${groupDigits(Number(amount))}`;
}

/**
 * A number rounded to whole units with comma thousands separators (`25,000`), as en-UG and en-US write it. Written
 * out, not `Intl.NumberFormat` or `toLocaleString`: the browser's number formatter, the first time a page starts it,
 * costs a slow phone's main thread a long task (decision 0239).
 */
export function groupDigits(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const digits = String(Math.round(Math.abs(value)));
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
  return `${value < 0 && digits !== '0' ? '-' : ''}${groups.join(',')}`;
}

/** Bytes in steps of 1024 with one decimal: `1.5 GB`. */
export function formatBytes(bytes: number): string {
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${exponent === 0 ? value : value.toFixed(1)} ${units[exponent]}`;
}

/** 'Never', 'N hours ago' under a day, otherwise the date. */
export function formatLastDownload(value: string | null | undefined, now: Date): string {
  if (!value) return 'Never';
  const date = new Date(value);
  const hours = (now.getTime() - date.getTime()) / 3_600_000;
  if (hours >= 0 && hours < 24) {
    const whole = Math.floor(hours);
    if (whole === 0) return 'Less than an hour ago';
    return whole === 1 ? '1 hour ago' : `${whole} hours ago`;
  }
  return formatDate(date);
}

/**
 * A film's running time as a person reads it: `1 h 32 min`, `45 min`, `2 h`; under a minute, `under 1 min`. Whole
 * minutes, rounded to the nearest: the figure weighs a size choice, not a stopwatch.
 */
export function formatRunningTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 30) return 'under 1 min';
  const minutes = Math.round(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
