import { formatDate, formatUgx, type CustomerPlan } from '@filamu/shared';
import { Card } from '../../../components/ui/Card.tsx';

export function PlanSummary({ plan }: { plan: CustomerPlan }) {
  return (
    <Card className="flex flex-wrap items-center justify-between gap-3">
      <div className="min-w-0">
        <p className="text-lg font-bold break-words">{plan.plan_name}</p>
        <p className="text-sm text-stone-600 dark:text-stone-400">One-time payment</p>
      </div>
      <div className="text-right">
        <p className="text-lg font-extrabold">{formatUgx(plan.price_ugx)}</p>
        <p className="text-sm text-stone-600 dark:text-stone-400">Access until {formatDate(plan.expires_at)}</p>
      </div>
    </Card>
  );
}
