import { type CustomerPlan } from '@filamu/shared';
import { formatDate } from '../../lib/dates.ts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { DownloadIcon, SmartphoneIcon, SparklesIcon } from '../../components/ui/icons.tsx';
import { LoadFailure } from '../../components/ui/LoadFailure.tsx';
import { useDocumentTitle } from '../../lib/page.ts';
import { useUserProfile } from '../../lib/queries.ts';
import { usePaymentsT } from './messages.ts';
import { heldSubscription, planOffer } from './plan-offer.ts';
import { PlanCard, PlanSkeleton } from './PlanCard.tsx';
import { usePurchaser } from './purchaser.ts';
import { useSubscriptionPlans, useWaitingPayment } from './queries.ts';
import { StaffNote } from './StaffNote.tsx';
import { WaitingPaymentCard } from './WaitingPaymentCard.tsx';

const STEPS = [
  {
    title: 'payments.plans.step1.title',
    text: 'payments.plans.step1.text',
    icon: <SmartphoneIcon className="size-6" />,
  },
  {
    title: 'payments.plans.step2.title',
    text: 'payments.plans.step2.text',
    icon: <SparklesIcon className="size-6" />,
  },
  {
    title: 'payments.plans.step3.title',
    text: 'payments.plans.step3.text',
    icon: <DownloadIcon className="size-6" />,
  },
] as const;

function PlanList() {
  const t = usePaymentsT();
  const navigate = useNavigate();
  const profile = useUserProfile();
  const plans = useSubscriptionPlans();
  // While a payment waits for the phone, a second purchase is refused by the server; the card above says why.
  const waiting = useWaitingPayment(usePurchaser() === 'user');
  const [preparing, setPreparing] = useState<string | null>(null);

  const subscribe = (plan: CustomerPlan) => {
    setPreparing(plan.id);
    void navigate(`/checkout/${encodeURIComponent(plan.id)}`);
  };

  if (plans.isPending) {
    return (
      <ul className="grid gap-6 md:grid-cols-3" aria-busy="true">
        <PlanSkeleton />
        <PlanSkeleton />
        <PlanSkeleton />
      </ul>
    );
  }
  if (plans.isError) {
    return (
      <LoadFailure
        look="card"
        className="mx-auto max-w-lg"
        what={t('payments.plans.what')}
        error={plans.error}
        reason="below"
        onRetry={() => void plans.refetch()}
        retrying={plans.isFetching}
      />
    );
  }
  if (plans.data.length === 0) {
    return (
      <Card className="mx-auto max-w-lg text-center">
        <p className="font-semibold">{t('payments.plans.empty')}</p>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{t('payments.plans.checkBack')}</p>
      </Card>
    );
  }
  return (
    <ul className="grid gap-6 pt-3 md:grid-cols-3">
      {plans.data.map((plan) => (
        <PlanCard
          key={plan.id}
          plan={plan}
          change={planOffer(plan, profile.data)}
          preparing={preparing === plan.id}
          disabled={preparing !== null || !!waiting.data}
          onSubscribe={() => subscribe(plan)}
        />
      ))}
    </ul>
  );
}

function Intro({ subscriber }: { subscriber: { planName: string; endsAt: Date } | null }) {
  const t = usePaymentsT();
  if (!subscriber) {
    return (
      <>
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{t('payments.plans.choose')}</h1>
        <p className="mt-3 text-stone-600 dark:text-stone-400">{t('payments.plans.chooseText')}</p>
      </>
    );
  }
  return (
    <>
      <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{t('payments.plans.renew')}</h1>
      <p className="mt-3 break-words text-stone-600 dark:text-stone-400">
        {t('payments.plans.renewBefore')} <span className="font-semibold">{subscriber.planName}</span>{' '}
        {t('payments.plans.renewAfter', { date: formatDate(subscriber.endsAt) })}
      </p>
    </>
  );
}

export default function SubscriptionPage() {
  const purchaser = usePurchaser();
  const profile = useUserProfile(purchaser === 'user');
  const t = usePaymentsT();
  useDocumentTitle(t('payments.plans.docTitle'));
  const staff = purchaser === 'agent' || purchaser === 'admin';
  const held = purchaser === 'user' ? heldSubscription(profile.data) : null;

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
        <div className="mx-auto max-w-2xl text-center">
          {staff ? (
            <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{t('payments.plans.label')}</h1>
          ) : (
            <Intro subscriber={held} />
          )}
        </div>

        {purchaser === 'user' && <WaitingPaymentCard className="mx-auto mt-8 max-w-2xl" />}
        <section aria-label={t('payments.plans.label')} className="mt-10">
          {staff ? <StaffNote kind={purchaser} /> : <PlanList />}
        </section>

        <section aria-labelledby="simple-secure" className="mt-16">
          <h2 id="simple-secure" className="text-center text-2xl font-bold">
            {t('payments.plans.simpleSecure')}
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-3">
            {STEPS.map((step) => (
              <li key={step.title} className="text-center">
                <span className="mx-auto grid size-12 place-items-center rounded-xl bg-brand-100 text-brand-800 dark:bg-brand-950 dark:text-brand-300">
                  {step.icon}
                </span>
                <h3 className="mt-3 font-semibold">{t(step.title)}</h3>
                <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{t(step.text)}</p>
              </li>
            ))}
          </ul>
        </section>
      </main>
    </div>
  );
}
