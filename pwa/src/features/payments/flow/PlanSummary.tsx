import { formatUgx, type CustomerPlan } from '@filamu/shared';
import { Card } from '../../../components/ui/Card.tsx';
import { accessLine } from '../plan-offer.ts';
import { usePaymentsT } from '../messages.ts';
import { ShortPlanWarning } from '../PlanFacts.tsx';

/**
 * The plan being paid for in two lines (so a phone still shows both networks' buttons under it, decision 0182), with
 * its exact end and what is left of it as the card and checkout said (decision 0176).
 */
export function PlanSummary({ plan }: { plan: CustomerPlan }) {
  const t = usePaymentsT();
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <p className="min-w-0 text-lg font-bold break-words">{plan.plan_name}</p>
        <p className="text-lg font-extrabold">{formatUgx(plan.price_ugx)}</p>
      </div>
      <p className="text-sm break-words text-stone-600 dark:text-stone-400">
        {t('payments.summary.oneTime', { access: accessLine(plan) })}
      </p>
      <ShortPlanWarning plan={plan} className="mt-2" />
    </Card>
  );
}
