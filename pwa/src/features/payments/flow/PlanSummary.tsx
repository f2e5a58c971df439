import { formatUgx, type CustomerPlan } from '@filamu/shared';
import { Card } from '../../../components/ui/Card.tsx';
import { accessLine } from '../plan-offer.ts';
import { ShortPlanWarning } from '../PlanFacts.tsx';

/** The plan being paid for, with its exact end and what is left of it, as the card and checkout said. */
export function PlanSummary({ plan }: { plan: CustomerPlan }) {
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="text-lg font-bold break-words">{plan.plan_name}</p>
          <p className="text-sm text-stone-600 dark:text-stone-400">One-time payment</p>
        </div>
        <p className="text-lg font-extrabold">{formatUgx(plan.price_ugx)}</p>
      </div>
      <p className="mt-2 text-sm break-words text-stone-600 dark:text-stone-400">{accessLine(plan)}</p>
      <ShortPlanWarning plan={plan} className="mt-3" />
    </Card>
  );
}
