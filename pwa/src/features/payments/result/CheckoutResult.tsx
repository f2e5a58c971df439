import { contracts, TransactionParams, type VerifyPaymentResponse } from '@filamu/shared';
import type { PaymentsMessageId } from '@filamu/shared/i18n/payments.en';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { AccountHeader } from '../../../components/layout/AccountHeader.tsx';
import { PageSpinner } from '../../../components/ui/Spinner.tsx';
import { api, errorMessage, isApiError } from '../../../lib/api.ts';
import { useDocumentTitle } from '../../../lib/page.ts';
import { queryClient, queryKeys } from '../../../lib/query-client.ts';
import { refreshUserProfile } from '../../../lib/queries.ts';
import { useSession } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast.ts';
import { paymentsT, usePaymentsT } from '../messages.ts';
import { usePurchaser } from '../purchaser.ts';
import { offerNotifications } from '../../push/push-client.ts';
import { NotFoundView, ReviewView, UncheckedView, WaitingView } from './OpenViews.tsx';
import { FailedView, SuccessView } from './SettledViews.tsx';

const TITLES: Record<VerifyPaymentResponse['status'], PaymentsMessageId> = {
  completed: 'payments.result.titleSuccess',
  pending: 'payments.result.titleStatus',
  review: 'payments.result.titleStatus',
  failed: 'payments.result.titleFailed',
  expired: 'payments.result.titleFailed',
};

/** The reference from the address, when it can be one; anything else in the query is never shown. */
function useTransactionId(): string | null {
  const [params] = useSearchParams();
  const parsed = TransactionParams.safeParse({ transaction_id: params.get('transaction_id') ?? '' });
  return parsed.success ? parsed.data.transaction_id : null;
}

/** Says "Subscription Activated!" once, only when the server has said the payment completed. */
function useActivatedOnce(result: VerifyPaymentResponse | undefined) {
  const announced = useRef<string | null>(null);
  useEffect(() => {
    if (result?.status !== 'completed' || announced.current === result.transaction_id) return;
    announced.current = result.transaction_id;
    toast.success(paymentsT('payments.result.activatedTitle'), paymentsT('payments.result.activatedText'));
    offerNotifications();
    void refreshUserProfile().catch((error: unknown) => console.error('Profile refresh failed', error));
    void queryClient.invalidateQueries({ queryKey: queryKeys.paymentHistory });
  }, [result]);
}

function Outcome({ transactionId }: { transactionId: string | null }) {
  const t = usePaymentsT();
  const { name } = useSession();
  const payment = useQuery({
    queryKey: ['payment', transactionId],
    queryFn: () => api(contracts.payments.transaction, { params: { transaction_id: transactionId! } }),
    enabled: transactionId !== null,
    staleTime: 0,
  });
  const result = payment.data;
  const missing = transactionId === null || (isApiError(payment.error) && payment.error.status === 404);
  useActivatedOnce(result);
  useDocumentTitle(missing ? t('payments.result.titleNotFound') : result ? t(TITLES[result.status]) : undefined);

  if (missing) return <NotFoundView />;
  if (payment.isPending) return <PageSpinner label={t('payments.result.checking')} />;
  const check = () => void payment.refetch();
  if (!result) {
    const message = errorMessage(payment.error, t('payments.result.checkConnection'));
    return <UncheckedView message={message} checking={payment.isFetching} onCheck={check} />;
  }
  switch (result.status) {
    case 'completed':
      return <SuccessView result={result} name={name ?? t('payments.result.there')} />;
    case 'pending':
      return <WaitingView result={result} checking={payment.isFetching} onCheck={check} />;
    case 'review':
      return <ReviewView result={result} />;
    default:
      return <FailedView result={result} />;
  }
}

/**
 * /checkout/success and /checkout/failed (docs/decisions/0027): both show what the server says about the
 * signed-in person's payment named by `transaction_id`, whichever address was opened.
 */
export function CheckoutResult() {
  const location = useLocation();
  const purchaser = usePurchaser();
  const transactionId = useTransactionId();
  const guest = purchaser === 'guest';
  const t = usePaymentsT();

  useEffect(() => {
    if (guest) toast.info(t('payments.result.signInTitle'), t('payments.result.signInText'));
  }, [guest, t]);

  if (purchaser === 'loading') return <PageSpinner label={t('payments.common.loadingAccount')} />;
  if (guest) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;

  return (
    <div className="min-h-screen">
      <AccountHeader />
      <main id="main" className="mx-auto max-w-lg px-4 py-10 sm:px-6">
        <Outcome transactionId={purchaser === 'agent' ? null : transactionId} />
      </main>
    </div>
  );
}
