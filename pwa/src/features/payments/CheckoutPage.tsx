import { contracts, type CustomerPlan } from '@filamu/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { AccountHeader } from '../../components/layout/AccountHeader.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { ArrowLeftIcon } from '../../components/ui/icons.tsx';
import { LoadFailure } from '../../components/ui/LoadFailure.tsx';
import { PageSpinner } from '../../components/ui/Spinner.tsx';
import { api, errorMessage, isApiError } from '../../lib/api.ts';
import { useDocumentTitle } from '../../lib/page.ts';
import { useUserProfile } from '../../lib/queries.ts';
import { toast } from '../../lib/toast.ts';
import { StepIndicator } from './flow/StepIndicator.tsx';
import { usePaymentsT } from './messages.ts';
import { OrderSummary } from './OrderSummary.tsx';
import { writeStoredPayment, type PaymentFlowState } from './payment-session.ts';
import { planOffer } from './plan-offer.ts';
import { usePurchaser } from './purchaser.ts';
import { useSubscriptionPlans } from './queries.ts';
import { StaffNote } from './StaffNote.tsx';

function Order({ planId }: { planId: string | undefined }) {
  const t = usePaymentsT();
  const navigate = useNavigate();
  const plans = useSubscriptionPlans();
  const profile = useUserProfile();
  const plan = plans.data?.find((p) => p.id === planId) ?? null;
  const notFound = plans.isSuccess && !plan;

  useEffect(() => {
    // Said as the person is sent back to the plans, where they look next.
    if (notFound) toast.error(t('payments.checkout.planNotFound'));
  }, [notFound, t]);

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
      const state: PaymentFlowState = {
        plan: selected,
        transactionId: result.transaction_id,
        dpoToken: result.dpo_token,
        reference: result.reference,
      };
      writeStoredPayment(state);
      void navigate('/payment-flow', { state });
    },
  });
  // A 401 has already sent the person to /login; anything else is said under the button.
  const failed = initiate.isError && !(isApiError(initiate.error) && initiate.error.status === 401);

  if (notFound) return <Navigate to="/subscription" replace />;
  if (plans.isPending) return <PageSpinner label={t('payments.checkout.loading')} />;
  if (plans.isError) {
    return (
      <LoadFailure
        look="card"
        what={t('payments.plans.what')}
        error={plans.error}
        reason="below"
        onRetry={() => void plans.refetch()}
        retrying={plans.isFetching}
        actions={
          <LinkButton to="/subscription" variant="outline">
            {t('payments.common.backToPlans')}
          </LinkButton>
        }
      />
    );
  }
  return (
    plan && (
      <OrderSummary
        plan={plan}
        change={planOffer(plan, profile.data)}
        pending={initiate.isPending}
        error={
          failed
            ? t('payments.checkout.error', {
                reason: errorMessage(initiate.error, t('payments.checkout.startFailed')),
              })
            : null
        }
        onProceed={() => initiate.mutate(plan)}
      />
    )
  );
}

export default function CheckoutPage() {
  const { planId } = useParams();
  const purchaser = usePurchaser();
  const t = usePaymentsT();
  useDocumentTitle(t('payments.checkout.title'));
  const staff = purchaser === 'agent' || purchaser === 'admin';

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
        <Link
          to="/subscription"
          className="inline-flex items-center gap-1.5 rounded-lg text-sm font-semibold text-stone-700 hover:text-stone-950 dark:text-stone-300 dark:hover:text-white"
        >
          <ArrowLeftIcon className="size-4" /> {t('payments.common.backToPlans')}
        </Link>
        <h1 className="mt-4 text-3xl font-extrabold tracking-tight">{t('payments.checkout.title')}</h1>
        {!staff && (
          <div className="mt-4 max-w-md">
            <StepIndicator phase="plan" />
          </div>
        )}
        <div className="mt-6">{staff ? <StaffNote kind={purchaser} /> : <Order planId={planId} />}</div>
      </main>
    </div>
  );
}
