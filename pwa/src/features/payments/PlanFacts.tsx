import type { CustomerPlan } from '@filamu/shared';
import { cn } from '../../components/ui/cn.ts';
import { LockIcon } from '../../components/ui/icons.tsx';
import { usePaymentsT } from './messages.ts';
import { shortPlanWarning } from './plan-offer.ts';

/**
 * Said before payment when little of a plan is left (the operator's threshold): the buyer pays the full price for
 * what remains until the plan's one end. Nothing while plenty is left.
 */
export function ShortPlanWarning({ plan, id, className }: { plan: CustomerPlan; id?: string; className?: string }) {
  const t = usePaymentsT();
  const warning = shortPlanWarning(plan);
  if (!warning) return null;
  return (
    <p
      id={id}
      className={cn(
        'rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm font-medium text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100',
        className,
      )}
    >
      <span className="font-bold">{t('payments.plan.littleTime')} </span>
      {warning}
    </p>
  );
}

/** The Kinayuganda-first rule, told before payment: short on a card, in full at checkout. */
export function EnglishRuleNote({ full, id, className }: { full?: boolean; id?: string; className?: string }) {
  const t = usePaymentsT();
  return (
    <p id={id} className={cn('flex min-w-0 items-start gap-2 text-sm text-stone-700 dark:text-stone-300', className)}>
      <LockIcon className="mt-0.5 size-4 shrink-0 text-stone-500 dark:text-stone-400" />
      <span className="min-w-0 break-words">
        {full ? t('payments.plan.englishRule') : t('payments.plan.englishShort')}
      </span>
    </p>
  );
}
