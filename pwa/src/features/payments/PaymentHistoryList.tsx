import { formatDate, formatUgx, MOBILE_MONEY, type PaymentStatus } from '@filamu/shared';
import { Badge, type BadgeTone } from '../../components/ui/Badge.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { CreditCardIcon } from '../../components/ui/icons.tsx';
import { LoadFailure } from '../../components/ui/LoadFailure.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { usePaymentHistory } from './queries.ts';

const STATUS: Record<PaymentStatus, { label: string; tone: BadgeTone }> = {
  completed: { label: 'Completed', tone: 'success' },
  pending: { label: 'Pending', tone: 'info' },
  failed: { label: 'Failed', tone: 'danger' },
  expired: { label: 'Expired', tone: 'neutral' },
  review: { label: 'Under review', tone: 'brand' },
};

/** The signed-in user's payments, newest first, with status badges. */
export function PaymentHistoryList() {
  const history = usePaymentHistory();
  return (
    <Card>
      <CardTitle>Payment history</CardTitle>
      {history.isPending && (
        <div className="flex justify-center py-8 text-brand-600 dark:text-brand-400">
          <Spinner label="Loading payment history" />
        </div>
      )}
      {history.isError && (
        <LoadFailure
          look="line"
          className="mt-4"
          what="payment history"
          error={history.error}
          onRetry={() => void history.refetch()}
        />
      )}
      {history.data && history.data.length === 0 && (
        <div className="flex flex-col items-center py-8 text-center">
          <CreditCardIcon className="size-10 text-stone-400" />
          <p className="mt-3 font-semibold">No payments yet</p>
          <LinkButton to="/subscription" variant="outline" size="sm" className="mt-4">
            View plans
          </LinkButton>
        </div>
      )}
      {history.data && history.data.length > 0 && (
        <ul className="mt-4 divide-y divide-stone-200 dark:divide-stone-800">
          {history.data.map((payment) => {
            const status = STATUS[payment.status];
            return (
              <li key={payment.transaction_id} className="flex items-start justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-semibold">{payment.plan_name}</p>
                  <p className="text-sm text-stone-600 dark:text-stone-400">
                    {formatDate(payment.created_at)}
                    {payment.mno ? ` · ${MOBILE_MONEY[payment.mno].name}` : ''}
                  </p>
                  <p className="font-mono text-xs text-stone-600 dark:text-stone-400">Ref {payment.reference}</p>
                </div>
                <div className="flex shrink-0 flex-col items-end gap-1">
                  <span className="font-semibold">{formatUgx(payment.amount)}</span>
                  <Badge tone={status.tone}>{status.label}</Badge>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
