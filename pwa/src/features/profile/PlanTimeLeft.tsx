import { timeLeft } from '@filamu/shared';
import { Badge } from '../../components/ui/Badge.tsx';
import { DAYS_REMAINING_WARNING } from '../../lib/constants.ts';
import { profileT, useProfileT } from './messages.ts';

const DAY_MS = 86_400_000;

/** `formatTimeLeft`'s words (shared/src/dates.ts) in the language active now. */
function timeLeftText(end: Date, now: Date, t: typeof profileT): string {
  const { days, hours, ms } = timeLeft(end, now);
  if (ms <= 0) return t('profile.timeLeft.ended');
  if (days === 0 && hours === 0) return t('profile.timeLeft.lessThanHour');
  if (days === 0) return t('profile.timeLeft.hours', { hours });
  if (hours === 0) return t('profile.timeLeft.days', { days });
  return t('profile.timeLeft.daysHours', { days, hours });
}

/**
 * What is left of the plan, never rounded up: "2 days 12 hours left", "5 hours left" (decision 0176's one
 * formatter). Counted on the phone from the end, not taken from a profile that may be days old. Red from
 * DAYS_REMAINING_WARNING days (product §2).
 */
export function PlanTimeLeft({ endDate, className }: { endDate: string; className?: string }) {
  const t = useProfileT();
  const end = new Date(endDate);
  const now = new Date();
  const warn = timeLeft(end, now).ms <= DAYS_REMAINING_WARNING * DAY_MS;
  return (
    <Badge tone={warn ? 'danger' : 'success'} className={className}>
      {timeLeftText(end, now, t)}
    </Badge>
  );
}
