import { contracts, formatDate, formatUgx, type CustomerPlan } from '@filamu/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { Button, LinkButton } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { ArrowLeftIcon, CheckIcon, LockIcon } from '../../components/ui/icons.tsx';
import { PageSpinner } from '../../components/ui/Spinner.tsx';
import { api, errorMessage, isApiError } from '../../lib/api.ts';
import { useSessionStore } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { writeStoredPayment, type PaymentFlowState } from './payment-session.ts';
import { PlanIcon } from './PlanIcon.tsx';
import { useSubscriptionPlans } from './queries.ts';

function Line({ label, children, strong }: { label: string; children: ReactNode; strong?: boolean }) {
  return (
    <div className={strong ? 'flex justify-between gap-4 pt-3 text-lg font-bold' : 'flex justify-between gap-4 py-2'}>
      <dt className={strong ? undefined : 'text-stone-600 dark:text-stone-400'}>{label}</dt>
      <dd className="text-right font-semibold">{children}</dd>
    </div>
  );
}

function OrderSummary({ plan, onProceed, pending }: { plan: CustomerPlan; onProceed: () => void; pending: boolean }) {
  const price = formatUgx(plan.price_ugx);
  return (
    <div className="grid gap-6 lg:grid-cols-5">
      <Card className="lg:col-span-3">
        <div className="flex items-center gap-3">
          <PlanIcon name={plan.plan_name} />
          <div>
            <CardTitle className="text-xl">{plan.plan_name}</CardTitle>
            <p className="text-sm text-stone-600 dark:text-stone-400">
              {price} <span className="font-medium">one-time</span>
            </p>
          </div>
        </div>
        {plan.description && <p className="mt-4 text-stone-700 dark:text-stone-300">{plan.description}</p>}
        <h2 className="mt-6 font-semibold">What you get</h2>
        <ul className="mt-3 space-y-2" aria-label={`${plan.plan_name} features`}>
          {plan.features.map((feature) => (
            <li key={feature} className="flex items-start gap-2">
              <CheckIcon className="mt-0.5 size-4 shrink-0 text-green-600 dark:text-green-400" />
              <span>{feature}</span>
            </li>
          ))}
        </ul>
        <p className="mt-6 rounded-xl bg-brand-50 p-3 text-sm font-medium text-brand-900 dark:bg-brand-950 dark:text-brand-200">
          Access until {formatDate(plan.expires_at)}
        </p>
      </Card>

      <Card className="lg:col-span-2" aria-labelledby="order-summary">
        <CardTitle id="order-summary">Order Summary</CardTitle>
        <dl className="mt-4 divide-y divide-stone-200 text-sm dark:divide-stone-800">
          <Line label="Plan">{plan.plan_name}</Line>
          <Line label="Price">
            {price} <span className="font-normal text-stone-600 dark:text-stone-400">one-time</span>
          </Line>
          <Line label="Subtotal">{price}</Line>
          <Line label="Total Due Today" strong>
            {price}
          </Line>
        </dl>
        <p className="mt-4 text-sm text-stone-600 dark:text-stone-400">
          You will be charged {price} once with mobile money. Access until {formatDate(plan.expires_at)}.
        </p>
        <Button className="mt-6 w-full" size="lg" onClick={onProceed} loading={pending}>
          {pending ? 'Preparing...' : 'Proceed to Payment'}
        </Button>
        <p className="mt-3 flex items-center justify-center gap-1.5 text-xs text-stone-600 dark:text-stone-400">
          <LockIcon className="size-3.5" /> Secure mobile money payment
        </p>
        <p className="mt-4 text-center text-xs text-stone-600 dark:text-stone-400">
          By continuing you agree to our{' '}
          <Link to="/terms" className="font-semibold text-brand-700 underline dark:text-brand-300">
            Terms of Service
          </Link>
          .
        </p>
      </Card>
    </div>
  );
}

export default function CheckoutPage() {
  const { planId } = useParams();
  const navigate = useNavigate();
  const plans = useSubscriptionPlans();
  const plan = plans.data?.find((p) => p.id === planId) ?? null;
  const notFound = plans.isSuccess && !plan;

  useEffect(() => {
    if (notFound) toast.error('Selected plan not found.');
  }, [notFound]);

  const initiate = useMutation({
    mutationFn: (selected: CustomerPlan) =>
      api(contracts.payments.initiate, {
        body: {
          subscription_plan_id: selected.id,
          amount: Number(selected.price_ugx),
          currency: 'UGX',
          description: `${selected.plan_name} subscription`,
        },
      }),
    onSuccess: (result, selected) => {
      if (!result.transaction_id || !result.dpo_token) {
        toast.error('Payment Error', 'Failed to initiate payment: No transaction ID or token received.');
        return;
      }
      const state: PaymentFlowState = {
        plan: selected,
        transactionId: result.transaction_id,
        dpoToken: result.dpo_token,
      };
      writeStoredPayment(state);
      void navigate('/payment-flow', { state });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 401) return; // the API client already sent us to /login
      toast.error('Payment Error', errorMessage(error, 'Failed to start payment.'));
    },
  });

  const proceed = () => {
    if (!plan) return;
    if (!useSessionStore.getState().token) {
      toast.error('Please Login', 'You need to log in to subscribe.');
      void navigate('/login');
      return;
    }
    initiate.mutate(plan);
  };

  if (notFound) return <Navigate to="/subscription" replace />;

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
        <Link
          to="/subscription"
          className="inline-flex items-center gap-1.5 rounded-lg text-sm font-semibold text-stone-700 hover:text-stone-950 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-400 dark:text-stone-300 dark:hover:text-white"
        >
          <ArrowLeftIcon className="size-4" /> Back to plans
        </Link>
        <h1 className="mt-4 text-3xl font-extrabold tracking-tight">Checkout</h1>
        <div className="mt-6">
          {plans.isPending && <PageSpinner label="Loading your order" />}
          {plans.isError && (
            <Card role="alert" className="text-center">
              <p className="font-semibold text-red-700 dark:text-red-400">Failed to load subscription plans</p>
              <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                {errorMessage(plans.error, 'Please try again.')}
              </p>
              <div className="mt-4 flex justify-center gap-3">
                <Button onClick={() => void plans.refetch()} loading={plans.isFetching}>
                  Retry
                </Button>
                <LinkButton to="/subscription" variant="outline">
                  Back to plans
                </LinkButton>
              </div>
            </Card>
          )}
          {plan && <OrderSummary plan={plan} onProceed={proceed} pending={initiate.isPending} />}
        </div>
      </main>
    </div>
  );
}
