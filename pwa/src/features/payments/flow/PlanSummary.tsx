import { formatDate, formatUgx, type CustomerPlan } from '@filamu/shared';
import { Card } from '../../../components/ui/Card.tsx';

/** Two lines, so a phone still shows both networks' buttons under it without scrolling (decision 0182). */
export function PlanSummary({ plan }: { plan: CustomerPlan }) {
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <p className="min-w-0 text-lg font-bold break-words">{plan.plan_name}</p>
        <p className="text-lg font-extrabold">{formatUgx(plan.price_ugx)}</p>
      </div>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        One-time payment · Access until {formatDate(plan.expires_at)}
      </p>
    </Card>
  );
}
