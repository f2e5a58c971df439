import { formatUgx, type CustomerPlan } from '@filamu/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Badge } from '../../components/ui/Badge.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { cn } from '../../components/ui/cn.ts';
import { CheckIcon, ShieldIcon, SmartphoneIcon, SparklesIcon, DownloadIcon } from '../../components/ui/icons.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useUserProfile } from '../../lib/queries.ts';
import { useSession } from '../../lib/session.ts';
import { isMostPopular, PlanIcon } from './PlanIcon.tsx';
import { useSubscriptionPlans } from './queries.ts';

function PlanCard({
  plan,
  current,
  preparing,
  disabled,
  onSubscribe,
}: {
  plan: CustomerPlan;
  current: boolean;
  preparing: boolean;
  disabled: boolean;
  onSubscribe: () => void;
}) {
  const popular = isMostPopular(plan.plan_name);
  const headingId = `plan-${plan.id}`;
  return (
    <li className="h-full">
      <Card
        aria-labelledby={headingId}
        className={cn(
          'relative flex h-full flex-col p-6',
          popular && 'border-brand-500 ring-2 ring-brand-500 dark:border-brand-400 dark:ring-brand-400',
        )}
      >
        {popular && (
          <Badge tone="brand" className="absolute -top-3 left-1/2 -translate-x-1/2 shadow-sm">
            Most Popular
          </Badge>
        )}
        <div className="flex items-center gap-3">
          <PlanIcon name={plan.plan_name} />
          <h2 id={headingId} className="text-xl font-bold">
            {plan.plan_name}
          </h2>
        </div>
        <p className="mt-4 text-3xl font-extrabold tracking-tight">{formatUgx(plan.price_ugx)}</p>
        {plan.description && <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{plan.description}</p>}
        <ul className="mt-5 flex-1 space-y-2" aria-label={`${plan.plan_name} features`}>
          {plan.features.slice(0, 3).map((feature) => (
            <li key={feature} className="flex items-start gap-2 text-sm">
              <CheckIcon className="mt-0.5 size-4 shrink-0 text-green-600 dark:text-green-400" />
              <span>{feature}</span>
            </li>
          ))}
        </ul>
        <Button
          className="mt-6 w-full"
          size="lg"
          variant={current ? 'secondary' : 'primary'}
          onClick={onSubscribe}
          disabled={current || disabled}
          loading={preparing}
          aria-describedby={headingId}
        >
          {current ? 'Current Plan' : preparing ? 'Preparing...' : 'Subscribe Now'}
        </Button>
        <p className="mt-3 flex items-center justify-center gap-1.5 text-xs text-stone-600 dark:text-stone-400">
          <ShieldIcon className="size-3.5" /> Secure mobile money payment
        </p>
      </Card>
    </li>
  );
}

function PlanSkeleton() {
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

const STEPS = [
  {
    title: 'One-Tap Subscribe',
    text: 'Pick a plan and pay with MTN Mobile Money or Airtel Money.',
    icon: <SmartphoneIcon className="size-6" />,
  },
  {
    title: 'Auto-Activation',
    text: 'Your subscription activates automatically as soon as the payment arrives.',
    icon: <SparklesIcon className="size-6" />,
  },
  {
    title: 'Instant Access',
    text: 'Start downloading Kinayuganda and English movies right away.',
    icon: <DownloadIcon className="size-6" />,
  },
];

export default function SubscriptionPage() {
  const navigate = useNavigate();
  const { status } = useSession();
  const profile = useUserProfile(status === 'user');
  const plans = useSubscriptionPlans();
  const [preparing, setPreparing] = useState<string | null>(null);

  const user = profile.data;
  const activePlan = user?.isSubscribed ? user.subscriptionPlan?.trim().toLowerCase() : null;

  const subscribe = (plan: CustomerPlan) => {
    setPreparing(plan.id);
    void navigate(`/checkout/${encodeURIComponent(plan.id)}`);
  };

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
        <div className="mx-auto max-w-2xl text-center">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">Choose your plan</h1>
          <p className="mt-3 text-stone-600 dark:text-stone-400">
            Pay once with mobile money and download Kinayuganda and English movies until your plan ends.
          </p>
        </div>

        <section aria-label="Subscription plans" aria-busy={plans.isPending || undefined} className="mt-10">
          {plans.isPending && (
            <ul className="grid gap-6 md:grid-cols-3">
              <PlanSkeleton />
              <PlanSkeleton />
              <PlanSkeleton />
            </ul>
          )}
          {plans.isError && (
            <Card role="alert" className="mx-auto max-w-lg text-center">
              <p className="font-semibold text-red-700 dark:text-red-400">Failed to load subscription plans</p>
              <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                {errorMessage(plans.error, 'Please try again.')}
              </p>
              <Button className="mt-4" onClick={() => void plans.refetch()} loading={plans.isFetching}>
                Retry
              </Button>
            </Card>
          )}
          {plans.data && plans.data.length === 0 && (
            <Card className="mx-auto max-w-lg text-center">
              <p className="font-semibold">No subscription plans are available right now.</p>
              <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Please check back soon.</p>
            </Card>
          )}
          {plans.data && plans.data.length > 0 && (
            <ul className="grid gap-6 pt-3 md:grid-cols-3">
              {plans.data.map((plan) => (
                <PlanCard
                  key={plan.id}
                  plan={plan}
                  current={!!activePlan && activePlan === plan.plan_name.trim().toLowerCase()}
                  preparing={preparing === plan.id}
                  disabled={preparing !== null}
                  onSubscribe={() => subscribe(plan)}
                />
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="simple-secure" className="mt-16">
          <h2 id="simple-secure" className="text-center text-2xl font-bold">
            Simple &amp; Secure
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-3">
            {STEPS.map((step) => (
              <li key={step.title} className="text-center">
                <span className="mx-auto grid size-12 place-items-center rounded-xl bg-brand-100 text-brand-700 dark:bg-brand-950 dark:text-brand-300">
                  {step.icon}
                </span>
                <h3 className="mt-3 font-semibold">{step.title}</h3>
                <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{step.text}</p>
              </li>
            ))}
          </ul>
        </section>
      </main>
    </div>
  );
}
