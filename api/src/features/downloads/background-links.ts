import { AppError } from '../../http/errors.ts';

/**
 * Longer-lived links for Background Fetch (decision 0112). A Background Fetch job cannot ask for a fresh link, so
 * its link must outlast the whole transfer; any other client re-mints hourly and gains nothing from a long one.
 */

/** The slowest connection a Background Fetch must still finish on: 0.5 Mbit/s, in bytes per second. */
const SLOWEST_BYTES_PER_SECOND = 62_500;
/** Room for the job to start late (the browser schedules it) and for the connection to drop for a while. */
const BACKGROUND_MARGIN_SECONDS = 1_800;

const NO_BACKGROUND_FETCH =
  'This browser cannot download in the background. Ask for an ordinary download link instead.';

/**
 * Background Fetch exists only in Chromium browsers, and none on iOS (every browser there is WebKit); the app asks
 * for a background link only where the API exists. The User-Agent is the only evidence a server gets, and any
 * client can forge it: this keeps honest clients that cannot use a long link from holding one, nothing more. What
 * bounds a forged one is the check of its grant on every request.
 */
export function canUseBackgroundFetch(userAgent: string | undefined): boolean {
  if (!userAgent) return false;
  if (/\b(iPhone|iPad|iPod)\b|\bCriOS\/|\bFxiOS\/|\bEdgiOS\//.test(userAgent)) return false;
  return /\b(Headless)?Chrome\/\d+|\bChromium\/\d+/.test(userAgent);
}

/**
 * The shortest lifetime that lets the file finish at the slowest rate, never below an ordinary link's and never
 * above the configured cap: 2 GB gets about 9.4 hours, a 300 MB file 1.8 hours.
 */
export function backgroundLinkSeconds(sizeBytes: number, ttl: { foreground: number; cap: number }): number {
  const needed = Math.ceil(sizeBytes / SLOWEST_BYTES_PER_SECOND) + BACKGROUND_MARGIN_SECONDS;
  return Math.max(ttl.foreground, Math.min(ttl.cap, needed));
}

export function refuseBackground(): never {
  throw new AppError('bad_request', NO_BACKGROUND_FETCH);
}
