import { formatTimeLeft, timeLeft } from '@filamu/shared';
import { Badge } from '../../components/ui/Badge.tsx';
import { DAYS_REMAINING_WARNING } from '../../lib/constants.ts';

const DAY_MS = 86_400_000;

/**
 * What is left of the plan, never rounded up: "2 days 12 hours left", "5 hours left" (decision 0176's one
 * formatter). Counted on the phone from the end, not taken from a profile that may be days old. Red from
 * DAYS_REMAINING_WARNING days (product §2).
 */
export function PlanTimeLeft({ endDate, className }: { endDate: string; className?: string }) {
  const end = new Date(endDate);
  const now = new Date();
  const warn = timeLeft(end, now).ms <= DAYS_REMAINING_WARNING * DAY_MS;
  return (
    <Badge tone={warn ? 'danger' : 'success'} className={className}>
      {formatTimeLeft(end, now)}
    </Badge>
  );
}
