import type { PhoneHints } from './schemas/device-checks.ts';

/**
 * A phone's model, Android version and Chrome version (major) from its User-Agent and, where the browser gives them,
 * its User-Agent Client Hints (decision 0253). Chrome reduces the header to `Linux; Android 10; K` (no model, a frozen
 * version) since Chrome 110, so the hints win where they say something; older Chromes and WebViews still name the
 * model in the header (`Android 9; TECNO KC8 Build/PPR1.180610.011`). Shared so the page and the console agree.
 */
export interface PhoneDescription {
  model: string | null;
  androidVersion: string | null;
  chromeVersion: string | null;
}

/** What a reduced User-Agent says instead of a model. */
const REDUCED_MODEL = 'K';
/** Segments after the Android version that are not a model: a locale (`en-us`), `U`, `wv` (a WebView), `Mobile`. */
const NOT_A_MODEL = /^(?:[a-z]{2}(?:[-_][a-z]{2})?|U|wv|Mobile|Tablet)$/i;

export function describePhone(userAgent: string | null | undefined, hints: PhoneHints | null): PhoneDescription {
  const ua = userAgent ?? '';
  const onAndroid = hints?.platform === 'Android';
  return {
    model: (onAndroid ? nonEmpty(hints?.model) : null) ?? modelInUserAgent(ua),
    androidVersion:
      (onAndroid ? shortVersion(nonEmpty(hints?.platformVersion)) : null) ??
      /\bAndroid\s+([\d.]+)/.exec(ua)?.[1] ??
      null,
    chromeVersion: /\b(?:HeadlessChrome|Chrome|CriOS|Chromium)\/(\d+)/.exec(ua)?.[1] ?? null,
  };
}

function modelInUserAgent(ua: string): string | null {
  const segments = /\bAndroid\s+[\d.]+;([^)]*)\)/.exec(ua)?.[1]?.split(';') ?? [];
  for (const segment of segments) {
    const build = segment.indexOf(' Build/');
    const name = (build < 0 ? segment : segment.slice(0, build)).trim();
    if (name && name !== REDUCED_MODEL && !NOT_A_MODEL.test(name)) return name;
  }
  return null;
}

const nonEmpty = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

/** `13.0.0` → `13`, `8.1.0` → `8.1`: the version as people say it. */
function shortVersion(version: string | null): string | null {
  if (!version) return null;
  let short = version;
  while (short.endsWith('.0') && short.length > 2) short = short.slice(0, -2);
  return short;
}
