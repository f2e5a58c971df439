/**
 * Turns a User-Agent header into the words a person uses for their device ("Chrome", "Android"), for the
 * profile's Security tab (docs/decisions/0034). Deliberately small: a handful of browsers and systems seen
 * on phones in Uganda, no version numbers; anything else is "Unknown browser" / no system.
 */
export interface DeviceDescription {
  browser: string;
  /** Android, iOS, Windows, macOS, ChromeOS, KaiOS or Linux; null when the header does not say. */
  system: string | null;
}

const UNKNOWN_BROWSER = 'Unknown browser';

/** The longest User-Agent kept with a session: real ones are ~150–300 characters; the rest is noise. */
export const USER_AGENT_MAX = 512;

// Order matters: Edge, Opera and Samsung Internet also say "Chrome" and "Safari"; Chrome also says "Safari".
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b|\bOPiOS\/|\bOPT\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\b(Headless)?Chrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.].*\bSafari\//, 'Safari'],
];

// KaiOS before Android (some KaiOS headers say Android); Android and ChromeOS before Linux (theirs say Linux/X11).
const SYSTEMS: [RegExp, string][] = [
  [/\biPhone|\biPad|\biPod/, 'iOS'],
  [/\bKAIOS\b/i, 'KaiOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
  const ua = userAgent ?? '';
  return {
    browser: BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? UNKNOWN_BROWSER,
    system: SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1] ?? null,
  };
}

/** What is stored for a request's User-Agent header: trimmed and cut to USER_AGENT_MAX, or null when absent. */
export function storedUserAgent(header: string | null | undefined): string | null {
  const value = header?.trim();
  return value ? value.slice(0, USER_AGENT_MAX) : null;
}
