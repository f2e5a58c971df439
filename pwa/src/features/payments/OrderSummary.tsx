import { formatUgx, type CustomerPlan, type PlanChange } from '@filamu/shared';
import { formatDateTime } from '../../lib/dates.ts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { CheckIcon, LockIcon } from '../../components/ui/icons.tsx';
import { usePaymentsT } from './messages.ts';
import { accessLine, changeNote, offerLabel, shortPlanWarning } from './plan-offer.ts';
import { EnglishRuleNote, ShortPlanWarning } from './PlanFacts.tsx';
import { PlanIcon } from './PlanIcon.tsx';

function Line({ label, children, strong }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <div className={strong ? 'flex justify-between gap-4 pt-3 text-lg font-bold' : 'flex justify-between gap-4 py-2'}>
      <dt className={strong ? undefined : 'text-stone-600 dark:text-stone-400'}>{label}</dt>
      <dd className="min-w-0 text-right font-semibold break-words">{children}</dd>
    </div>
  );
}

export function OrderSummary({
  plan,
  change,
  pending,
  error,
  onProceed,
}: {
  plan: CustomerPlan;
  change: PlanChange;
  pending: boolean;
  /** Why the payment could not be started, shown under the button. */
  error: string | null;
  onProceed: () => void;
}) {
  const t = usePaymentsT();
  const price = formatUgx(plan.price_ugx);
  const note = changeNote(change);
  const forSale = change.kind === 'new' || change.kind === 'replaces';
  return (
    <div className="grid gap-6 lg:grid-cols-5">
      <Card className="min-w-0 lg:col-span-3">
        <div className="flex min-w-0 items-center gap-3">
          <PlanIcon name={plan.plan_name} />
          <div className="min-w-0">
            <CardTitle className="text-xl break-words">{plan.plan_name}</CardTitle>
            <p className="text-sm text-stone-600 dark:text-stone-400">
              {price} <span className="font-medium">{t('payments.common.oneTime')}</span>
            </p>
          </div>
        </div>
        {plan.description && <p className="mt-4 break-words text-stone-700 dark:text-stone-300">{plan.description}</p>}
        <h2 className="mt-6 font-semibold">{t('payments.order.whatYouGet')}</h2>
        <ul className="mt-3 space-y-2" aria-label={t('payments.common.features', { plan: plan.plan_name })}>
          {plan.features.map((feature) => (
            <li key={feature} className="flex min-w-0 items-start gap-2">
              <CheckIcon className="mt-0.5 size-4 shrink-0 text-green-700 dark:text-green-400" />
              <span className="min-w-0 break-words">{feature}</span>
            </li>
          ))}
        </ul>
        <p className="mt-6 rounded-xl bg-brand-50 p-3 text-sm font-medium text-brand-900 dark:bg-brand-950 dark:text-brand-200">
          {accessLine(plan)}
        </p>
        <ShortPlanWarning plan={plan} id="plan-short-warning" className="mt-3" />
        {plan.includes_english && <EnglishRuleNote full id="plan-english-rule" className="mt-4" />}
      </Card>

      <Card className="min-w-0 lg:col-span-2" aria-labelledby="order-summary">
        <CardTitle id="order-summary">{t('payments.order.title')}</CardTitle>
        <dl className="mt-4 divide-y divide-stone-200 text-sm dark:divide-stone-800">
          <Line label={t('payments.common.plan')}>{plan.plan_name}</Line>
          <Line label={t('payments.order.price')}>
            {price}{' '}
            <span className="font-normal text-stone-600 dark:text-stone-400">{t('payments.common.oneTime')}</span>
          </Line>
          <Line label={t('payments.order.totalDue')} strong>
            {price}
          </Line>
        </dl>
        <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">
          {t('payments.order.charged', { price, date: formatDateTime(plan.expires_at) })}
        </p>
        {note && (
          <p id="plan-change-note" className="mt-3 rounded-xl bg-stone-100 p-3 text-sm dark:bg-stone-800">
            {note}
          </p>
        )}
        <Button
          className="mt-6 w-full"
          size="lg"
          variant={forSale ? 'primary' : 'secondary'}
          onClick={onProceed}
          loading={pending}
          disabled={!forSale}
          aria-describedby={[
            shortPlanWarning(plan) && 'plan-short-warning',
            note && 'plan-change-note',
            'plan-english-rule',
            error && 'checkout-error',
          ]
            .filter(Boolean)
            .join(' ')}
        >
          {!forSale ? offerLabel(change) : pending ? t('payments.common.preparing') : t('payments.order.proceed')}
        </Button>
        {error && (
          <p id="checkout-error" role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        <p className="mt-3 flex items-center justify-center gap-1.5 text-xs text-stone-600 dark:text-stone-400">
          <LockIcon className="size-3.5" /> {t('payments.common.secure')}
        </p>
        <p className="mt-4 text-center text-xs text-stone-600 dark:text-stone-400">
          {t('payments.order.agreeBefore')}{' '}
          <Link to="/terms" className="font-semibold text-brand-800 underline dark:text-brand-300">
            {t('payments.order.agreeLink')}
          </Link>
          {t('payments.order.agreeAfter')}
        </p>
      </Card>
    </div>
  );
}
