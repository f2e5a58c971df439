import { type SessionDevice } from '@filamu/shared';
import { formatDate } from '../../lib/dates.ts';
import { profileT } from './messages.ts';

/** "Chrome on Android", "Unknown browser on Linux", or just the browser when the system is unknown. */
export function deviceName(device: Pick<SessionDevice, 'browser' | 'system'>): string {
  return device.system
    ? profileT('profile.device.name', { browser: device.browser, system: device.system })
    : device.browser;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * When the session was last used, in words. The server records it at most every 5 minutes, so anything
 * under that is "just now"; past a day it is a date (`1 Feb 2027`).
 */
export function lastActive(iso: string, now: Date): string {
  const ago = now.getTime() - new Date(iso).getTime();
  if (ago < 5 * MINUTE) return profileT('profile.device.justNow');
  if (ago < HOUR) return profileT('profile.device.minutesAgo', { count: Math.floor(ago / MINUTE) });
  if (ago < 24 * HOUR) return profileT('profile.device.hoursAgo', { count: Math.floor(ago / HOUR) });
  return profileT('profile.device.onDate', { date: formatDate(iso) });
}

/** "Signed in since 20 Nov 2026, last active 2 hours ago" */
export function sessionSummary(device: Pick<SessionDevice, 'signedInAt' | 'lastActiveAt'>, now: Date): string {
  return profileT('profile.device.summary', {
    date: formatDate(device.signedInAt),
    ago: lastActive(device.lastActiveAt, now),
  });
}
