import { commonT } from './common-messages.ts';

/**
 * Time left at the current speed: `Less than a minute left`, `12 min left`, `1 h 5 min left`. Here rather than in a
 * feature because a download on the phone and an encoding in the admin console both count down in these words.
 */
export function formatTimeLeft(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 1) return commonT('common.eta.underMinute');
  if (minutes < 60) return commonT('common.eta.minutes', { minutes });
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? commonT('common.eta.hoursMinutes', { hours, minutes: rest }) : commonT('common.eta.hours', { hours });
}
