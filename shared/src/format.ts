import { formatDate } from './dates.ts';

export * from './dates.ts';

/** UGX amounts are whole numbers shown with en-UG thousands separators: `UGX 25,000`. */
export function formatUgx(amount: number | string): string {
  return `UGX ${new Intl.NumberFormat('en-UG', { maximumFractionDigits: 0 }).format(Number(amount))}`;
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
    return whole === 1 ? '1 hour ago' : `${whole} hours ago`;
  }
  return formatDate(date);
}
