import { formatDate, type SessionDevice } from '@filamu/shared';

/** "Chrome on Android", "Unknown browser on Linux", or just the browser when the system is unknown. */
export function deviceName(device: Pick<SessionDevice, 'browser' | 'system'>): string {
  return device.system ? `${device.browser} on ${device.system}` : device.browser;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * When the session was last used, in words. The server records it at most every 5 minutes, so anything
 * under that is "just now"; past a day it is a date (`1 Feb 2027`).
 */
export function lastActive(iso: string, now: Date): string {
  const ago = now.getTime() - new Date(iso).getTime();
  if (ago < 5 * MINUTE) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} minutes ago`;
  if (ago < 24 * HOUR) {
    const hours = Math.floor(ago / HOUR);
    return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
  }
  return `on ${formatDate(iso)}`;
}

/** "Signed in since 20 Nov 2026, last active 2 hours ago" */
export function sessionSummary(device: Pick<SessionDevice, 'signedInAt' | 'lastActiveAt'>, now: Date): string {
  return `Signed in since ${formatDate(device.signedInAt)}, last active ${lastActive(device.lastActiveAt, now)}`;
}
