/**
 * The plan form's expiry time is typed on a 12-hour clock with AM/PM (product §5) but stored as Kampala
 * `hh:mm` on a 24-hour clock: 12 AM is hour 0 and PM adds 12 (12 PM stays 12).
 */
export type Period = 'AM' | 'PM';

export interface Time12 {
  /** 1–12 */
  hour: number;
  /** 0–59 */
  minute: number;
  period: Period;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `{ hour: 12, minute: 0, period: 'AM' }` → `'00:00'`; throws on an hour outside 1–12 or minute outside 0–59. */
export function to24Hour({ hour, minute, period }: Time12): string {
  if (!Number.isInteger(hour) || hour < 1 || hour > 12) throw new RangeError(`Not a 12-hour clock hour: ${hour}`);
  if (!Number.isInteger(minute) || minute < 0 || minute > 59) throw new RangeError(`Not a minute: ${minute}`);
  const base = hour === 12 ? 0 : hour;
  return `${pad(period === 'PM' ? base + 12 : base)}:${pad(minute)}`;
}

/** `'23:59'` → `{ hour: 11, minute: 59, period: 'PM' }`; the reverse of {@link to24Hour}. */
export function from24Hour(hhmm: string): Time12 {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  if (!match) throw new RangeError(`Not a 24-hour time: ${hhmm}`);
  const hours = Number(match[1]);
  return { hour: hours % 12 === 0 ? 12 : hours % 12, minute: Number(match[2]), period: hours < 12 ? 'AM' : 'PM' };
}

/** `'11:59 PM'`, as the quick buttons and the list read. */
export function formatTime12({ hour, minute, period }: Time12): string {
  return `${hour}:${pad(minute)} ${period}`;
}
