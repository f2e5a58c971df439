const DAY_MS = 86_400_000;

/** UGX amounts are whole numbers shown with en-UG thousands separators: `UGX 25,000`. */
export function formatUgx(amount: number | string): string {
  return `UGX ${new Intl.NumberFormat('en-UG', { maximumFractionDigits: 0 }).format(Number(amount))}`;
}

/** Dates are shown MM/DD/YYYY (product §9) in Kampala time. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return 'N/A';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return 'N/A';
  return new Intl.DateTimeFormat('en-US', {
    month: '2-digit',
    day: '2-digit',
    year: 'numeric',
    timeZone: 'Africa/Kampala',
  }).format(date);
}

/** Whole days until `end`, rounded up; 0 once it has passed. */
export function daysRemaining(end: Date, now: Date): number {
  return Math.max(0, Math.ceil((end.getTime() - now.getTime()) / DAY_MS));
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

/** `1 December` (Kampala time): a day near enough that the year goes without saying. */
export function formatDayMonth(value: string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', timeZone: 'Africa/Kampala' }).format(date);
}
