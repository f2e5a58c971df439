import { dateToKampalaLocal, type NightBundleSetting, NightBundleSetting as Schema } from '@filamu/shared';
import { typedNumber } from '../../../lib/form.ts';

/** The night bundle as typed in the console: the price and each window's two times, as text. */
export interface NightBundleDraft {
  price: string;
  windows: { start: string; end: string }[];
}

export const MAX_NIGHT_WINDOWS = 4;

export const draftOf = (setting: NightBundleSetting): NightBundleDraft => ({
  price: String(setting.nightPricePerGbUgx),
  windows: setting.windows.map((w) => ({ ...w })),
});

/** "6:00" and "0600" are read as "06:00"; anything else is left for the schema to word. */
function typedTime(typed: string): string {
  const text = typed.trim().replace('.', ':');
  const short = /^(\d):(\d\d)$/.exec(text);
  if (short) return `0${short[1]}:${short[2]}`;
  const bare = /^(\d\d)(\d\d)$/.exec(text);
  return bare ? `${bare[1]}:${bare[2]}` : text;
}

/**
 * Errors by field: `price`, `windows.N.start`, `windows.N.end`, and `windows.N` for a window as a whole (it overlaps
 * another) or `windows` for the list.
 */
export type NightBundleErrors = Record<string, string>;

/** The draft checked as the server checks it: the setting to save, or the errors in words beside their fields. */
export function readNightBundle(
  draft: NightBundleDraft,
): { setting: NightBundleSetting; errors?: undefined } | { errors: NightBundleErrors } {
  const parsed = Schema.safeParse({
    nightPricePerGbUgx: typedNumber(draft.price),
    windows: draft.windows.map((w) => ({ start: typedTime(w.start), end: typedTime(w.end) })),
  });
  if (parsed.success) return { setting: parsed.data };
  const errors: NightBundleErrors = {};
  for (const issue of parsed.error.issues) {
    const [head, ...rest] = issue.path.map(String);
    const key = head === 'nightPricePerGbUgx' ? 'price' : [head, ...rest].join('.');
    errors[key] ??= issue.message;
  }
  return { errors };
}

/** When a waiting change takes effect, in Kampala time: "06:00 on 2026-11-30". */
export function takesEffectText(takesEffectAt: string): string {
  const local = dateToKampalaLocal(new Date(takesEffectAt));
  return `${local.slice(11, 16)} on ${local.slice(0, 10)}`;
}
