/**
 * The one way dates and times are written for people, on screens, SMS, push and receipts alike (decision 0178):
 * `1 Feb 2027` — day, short month name, year — because `01/02/2027` reads as 1 February here. Times are Kampala's
 * 12-hour clock, `2:00 AM`, the clock the admin's plan form uses. Everything is Kampala time whatever the device
 * says: every plan ends at a Kampala moment.
 */
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Africa/Kampala is UTC+3 all year (no daylight saving). */
const KAMPALA_OFFSET_MS = 3 * HOUR_MS;

// Written out rather than asked of Intl: engines differ ('Sept', a narrow no-break space before 'AM'), and a
// receipt, an SMS and the screen must read the same.
const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The Kampala wall clock of an instant, read through UTC getters. */
const kampalaClock = (date: Date) => new Date(date.getTime() + KAMPALA_OFFSET_MS);

function toDate(value: string | Date | null | undefined): Date | null {
  if (!value) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `1 Feb 2027` in Kampala; 'N/A' for nothing or a value that is not a date. */
export function formatDate(value: string | Date | null | undefined): string {
  const date = toDate(value);
  if (!date) return 'N/A';
  const local = kampalaClock(date);
  return `${local.getUTCDate()} ${SHORT_MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()}`;
}

/** `2:00 AM` on Kampala's clock. */
export function formatTime(value: string | Date): string {
  const date = toDate(value);
  if (!date) return 'N/A';
  const local = kampalaClock(date);
  const hours = local.getUTCHours();
  const minutes = String(local.getUTCMinutes()).padStart(2, '0');
  return `${hours % 12 === 0 ? 12 : hours % 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** `1 Feb 2027, 2:00 AM` (Kampala time); 'N/A' for nothing or a value that is not a date. */
export function formatDateTime(value: string | Date | null | undefined): string {
  const date = toDate(value);
  return date ? `${formatDate(date)}, ${formatTime(date)}` : 'N/A';
}

/** `1 December` (Kampala time): a day near enough that the year goes without saying. */
export function formatDayMonth(value: string | Date): string {
  const date = toDate(value);
  if (!date) return 'N/A';
  const local = kampalaClock(date);
  return `${local.getUTCDate()} ${LONG_MONTHS[local.getUTCMonth()]}`;
}

/** `November 2026` (Kampala time): a calendar month, as a heading for what happened in it. */
export function formatMonthYear(value: string | Date): string {
  const date = toDate(value);
  if (!date) return 'N/A';
  const local = kampalaClock(date);
  return `${LONG_MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()}`;
}

/**
 * A plan's Kampala expiry as typed and stored, `YYYY-MM-DDThh:mm`, written like every other moment:
 * `31 Dec 2027, 11:59 PM`. Pure text in, so the reader's own time zone never shifts it.
 */
export function formatKampalaLocal(local: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return local;
  return formatDateTime(new Date(`${match[1]}T${match[2]}:${match[3]}:00+03:00`));
}

/** Whole days until `end`, rounded up; 0 once it has passed. */
export function daysRemaining(end: Date, now: Date): number {
  return Math.max(0, Math.ceil((end.getTime() - now.getTime()) / DAY_MS));
}

/** Whole days and hours until `end`, rounded down to the hour; zeros once it has passed. */
export function timeLeft(end: Date, now: Date): { days: number; hours: number; ms: number } {
  const ms = Math.max(0, end.getTime() - now.getTime());
  return { days: Math.floor(ms / DAY_MS), hours: Math.floor((ms % DAY_MS) / HOUR_MS), ms };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * What is left of a plan, as a buyer weighs it: `12 days 5 hours left`, `12 hours left`, `less than an hour
 * left`, or `ended`. Never rounded up: a plan that ends tonight is not "1 day".
 */
export function formatTimeLeft(end: Date, now: Date): string {
  const { days, hours, ms } = timeLeft(end, now);
  if (ms <= 0) return 'ended';
  if (days === 0 && hours === 0) return 'less than an hour left';
  if (days === 0) return `${plural(hours, 'hour')} left`;
  if (hours === 0) return `${plural(days, 'day')} left`;
  return `${plural(days, 'day')} ${plural(hours, 'hour')} left`;
}
