import { formatUgx, type CustomerPlan, type PlanChange } from '@filamu/shared';
import { Badge } from '../../components/ui/Badge.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { CheckIcon, ShieldIcon } from '../../components/ui/icons.tsx';
import { usePaymentsT } from './messages.ts';
import { accessLine, changeNote, offerLabel, shortPlanWarning } from './plan-offer.ts';
import { EnglishRuleNote, ShortPlanWarning } from './PlanFacts.tsx';
import { isMostPopular, PlanIcon } from './PlanIcon.tsx';

export function PlanCard({
  plan,
  change,
  preparing,
  disabled,
  onSubscribe,
}: {
  plan: CustomerPlan;
  change: PlanChange;
  preparing: boolean;
  disabled: boolean;
  onSubscribe: () => void;
}) {
  const t = usePaymentsT();
  const popular = isMostPopular(plan.plan_name);
  const headingId = `plan-${plan.id}`;
  const noteId = `plan-${plan.id}-note`;
  const warningId = `plan-${plan.id}-warning`;
  const ruleId = `plan-${plan.id}-english`;
  const warned = shortPlanWarning(plan) !== null;
  const note = changeNote(change);
  const forSale = change.kind === 'new' || change.kind === 'replaces';
  return (
    <li className="h-full min-w-0">
      <Card
        aria-labelledby={headingId}
        className={cn(
          'relative flex h-full flex-col p-6',
          popular && 'border-brand-500 ring-2 ring-brand-500 dark:border-brand-400 dark:ring-brand-400',
        )}
      >
        {popular && (
          <Badge tone="brand" className="absolute -top-3 left-1/2 -translate-x-1/2 shadow-sm">
            {t('payments.plan.mostPopular')}
          </Badge>
        )}
        <div className="flex min-w-0 items-center gap-3">
          <PlanIcon name={plan.plan_name} />
          <h2 id={headingId} className="min-w-0 text-xl font-bold break-words">
            {plan.plan_name}
          </h2>
        </div>
        <p className="mt-4 text-3xl font-extrabold tracking-tight">{formatUgx(plan.price_ugx)}</p>
        <p className="mt-1 text-sm font-medium text-stone-700 dark:text-stone-300">{accessLine(plan)}</p>
        <ShortPlanWarning plan={plan} id={warningId} className="mt-3" />
        {plan.description && (
          <p className="mt-2 text-sm break-words text-stone-600 dark:text-stone-400">{plan.description}</p>
        )}
        <ul className="mt-5 flex-1 space-y-2" aria-label={t('payments.common.features', { plan: plan.plan_name })}>
          {plan.features.slice(0, 3).map((feature) => (
            <li key={feature} className="flex min-w-0 items-start gap-2 text-sm">
              <CheckIcon className="mt-0.5 size-4 shrink-0 text-green-700 dark:text-green-400" />
              <span className="min-w-0 break-words">{feature}</span>
            </li>
          ))}
        </ul>
        {plan.includes_english && <EnglishRuleNote id={ruleId} className="mt-4" />}
        {note && (
          <p
            id={noteId}
            className={cn(
              'mt-5 rounded-xl p-3 text-sm',
              forSale
                ? 'bg-amber-50 text-amber-950 dark:bg-amber-950 dark:text-amber-100'
                : 'bg-stone-100 text-stone-800 dark:bg-stone-800 dark:text-stone-200',
            )}
          >
            {note}
          </p>
        )}
        <Button
          className="mt-5 w-full"
          size="lg"
          variant={forSale ? 'primary' : 'secondary'}
          onClick={onSubscribe}
          disabled={!forSale || disabled}
          loading={preparing}
          aria-describedby={[headingId, warned && warningId, note && noteId, plan.includes_english && ruleId]
            .filter(Boolean)
            .join(' ')}
        >
          {preparing ? t('payments.common.preparing') : offerLabel(change)}
        </Button>
        <p className="mt-3 flex items-center justify-center gap-1.5 text-xs text-stone-600 dark:text-stone-400">
          <ShieldIcon className="size-3.5" /> {t('payments.common.secure')}
        </p>
      </Card>
    </li>
  );
}

export function PlanSkeleton() {
  return (
    <li aria-hidden="true">
      <div className="h-96 animate-pulse rounded-2xl border border-stone-200 bg-white p-6 dark:border-stone-800 dark:bg-stone-900">
        <div className="flex items-center gap-3">
          <div className="size-12 rounded-xl bg-stone-200 dark:bg-stone-800" />
          <div className="h-6 w-32 rounded bg-stone-200 dark:bg-stone-800" />
        </div>
        <div className="mt-6 h-9 w-40 rounded bg-stone-200 dark:bg-stone-800" />
        <div className="mt-6 space-y-3">
          <div className="h-4 w-full rounded bg-stone-200 dark:bg-stone-800" />
          <div className="h-4 w-5/6 rounded bg-stone-200 dark:bg-stone-800" />
          <div className="h-4 w-2/3 rounded bg-stone-200 dark:bg-stone-800" />
        </div>
        <div className="mt-10 h-12 w-full rounded-xl bg-stone-200 dark:bg-stone-800" />
      </div>
    </li>
  );
}
