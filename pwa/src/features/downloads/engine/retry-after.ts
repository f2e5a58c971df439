import { backoffMs, DOWNLOAD_RETRY } from '../../../lib/transfer/backoff.ts';

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date starts with the day's name (`Mon, 23 Nov 2026 …`); anything else is not one.
  const date = /^[A-Za-z]{3},/.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * How long to wait after the server said "too many requests" (429): never less than its Retry-After, and never
 * less than the usual back-off; the download is not failed, it waits and asks again.
 */
export function waitAfterRateLimit(failures: number, retryAfterMs: number | null, random: () => number = Math.random) {
  return Math.max(retryAfterMs ?? 0, backoffMs(failures, DOWNLOAD_RETRY, random));
}

/** What the download shows meanwhile. */
export function rateLimitedMessage(waitMs: number): string {
  const seconds = Math.ceil(waitMs / 1000);
  if (seconds < 90) return `The server is busy: resuming in ${seconds} s`;
  return `The server is busy: resuming in ${Math.ceil(seconds / 60)} min`;
}
