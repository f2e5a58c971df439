import { dateToKampalaLocal, type NightWindow } from '@filamu/shared';
import { downloadsT } from '../messages.ts';
import { ugxEstimate } from '../sizes.ts';

/** The words of Download tonight and night mode (issue 21/22): prices, hours and times, Kampala time. */

/** `≈ UGX 1,100 now · ≈ UGX 400 tonight`: a film's data at the day price and at the night bundle's. */
export function bothPricesText(bytes: number, dayPricePerGbUgx: number, nightPricePerGbUgx: number): string {
  return downloadsT('downloads.tonight.bothPrices', {
    now: ugxEstimate(bytes, dayPricePerGbUgx),
    tonight: ugxEstimate(bytes, nightPricePerGbUgx),
  });
}

/** `00:00–06:00`, or `00:00–06:00 and 13:00–14:00`. */
export function hoursText(windows: readonly NightWindow[]): string {
  const spans = windows.map((w) => `${w.start}–${w.end}`);
  if (spans.length <= 1) return spans[0] ?? '';
  return downloadsT('downloads.list.and', { list: spans.slice(0, -1).join(', '), last: spans.at(-1)! });
}

/** `23:42`: the Kampala time of an instant (the windows are Kampala's, whatever zone the phone is set to). */
export function kampalaClock(at: number): string {
  return dateToKampalaLocal(new Date(at)).slice(11, 16);
}

/** `2 h 10 min`, `5 min`, `under a minute`: how long until an instant. */
export function timeUntilText(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes <= 0) return downloadsT('downloads.until.underMinute');
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return downloadsT('downloads.until.minutes', { minutes: rest });
  return rest === 0
    ? downloadsT('downloads.until.hours', { hours })
    : downloadsT('downloads.until.hoursMinutes', { hours, minutes: rest });
}
