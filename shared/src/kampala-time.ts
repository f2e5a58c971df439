/**
 * Plan expiry is entered and shown as Kampala local time `YYYY-MM-DDThh:mm`. Africa/Kampala is UTC+3 all
 * year (no daylight saving), so the conversion is a fixed offset.
 */
const KAMPALA_OFFSET_MS = 3 * 3_600_000;

export function kampalaLocalToDate(local: string): Date {
  const date = new Date(`${local}:00.000Z`);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a local date-time: ${local}`);
  return new Date(date.getTime() - KAMPALA_OFFSET_MS);
}

export function dateToKampalaLocal(date: Date): string {
  return new Date(date.getTime() + KAMPALA_OFFSET_MS).toISOString().slice(0, 16);
}

/** The Kampala calendar month of an instant, `YYYY-MM`. */
export function kampalaMonth(date: Date): string {
  return dateToKampalaLocal(date).slice(0, 7);
}

/** The Kampala calendar day of an instant, `YYYY-MM-DD`. */
export function kampalaDate(date: Date): string {
  return dateToKampalaLocal(date).slice(0, 10);
}

/** The instant the next Kampala calendar month begins (midnight on its 1st, Kampala time). */
export function nextKampalaMonthStart(date: Date): Date {
  const local = new Date(date.getTime() + KAMPALA_OFFSET_MS);
  const next = Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1);
  return new Date(next - KAMPALA_OFFSET_MS);
}

/** The instant the Kampala calendar day of `date` began (its midnight, Kampala time). */
export function kampalaDayStart(date: Date): Date {
  const local = new Date(date.getTime() + KAMPALA_OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - KAMPALA_OFFSET_MS);
}

/** The instant the Kampala calendar month of `date` began (midnight on its 1st, Kampala time). */
export function kampalaMonthStart(date: Date): Date {
  const local = new Date(date.getTime() + KAMPALA_OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - KAMPALA_OFFSET_MS);
}
