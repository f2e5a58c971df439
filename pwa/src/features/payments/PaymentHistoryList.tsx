import { formatUgx, MOBILE_MONEY, type PaymentStatus } from '@filamu/shared';
import { formatDate } from '../../lib/dates.ts';
import type { PaymentsMessageId } from '@filamu/shared/i18n/payments.en';
import { Badge, type BadgeTone } from '../../components/ui/Badge.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { CreditCardIcon } from '../../components/ui/icons.tsx';
import { LoadFailure } from '../../components/ui/LoadFailure.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { usePaymentsT } from './messages.ts';
import { usePaymentHistory } from './queries.ts';

const STATUS = {
  completed: { label: 'payments.status.completed', tone: 'success' },
  pending: { label: 'payments.status.pending', tone: 'info' },
  failed: { label: 'payments.status.failed', tone: 'danger' },
  expired: { label: 'payments.status.expired', tone: 'neutral' },
  review: { label: 'payments.status.review', tone: 'brand' },
} as const satisfies Record<PaymentStatus, { label: PaymentsMessageId; tone: BadgeTone }>;

/** The signed-in user's payments, newest first, with status badges. */
export function PaymentHistoryList() {
  const t = usePaymentsT();
  const history = usePaymentHistory();
  return (
    <Card>
      <CardTitle>{t('payments.history.title')}</CardTitle>
      {history.isPending && (
        <div className="flex justify-center py-8 text-brand-600 dark:text-brand-400">
          <Spinner label={t('payments.history.loading')} />
        </div>
      )}
      {history.isError && (
        <LoadFailure
          look="line"
          className="mt-4"
          what={t('payments.history.what')}
          error={history.error}
          onRetry={() => void history.refetch()}
        />
      )}
      {history.data && history.data.length === 0 && (
        <div className="flex flex-col items-center py-8 text-center">
          <CreditCardIcon className="size-10 text-stone-400" />
          <p className="mt-3 font-semibold">{t('payments.history.empty')}</p>
          <LinkButton to="/subscription" variant="outline" size="sm" className="mt-4">
            {t('payments.common.viewPlans')}
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
                  <p className="font-mono text-xs text-stone-600 dark:text-stone-400">
                    {t('payments.history.ref', { reference: payment.reference })}
                  </p>
                </div>
                <div className="flex shrink-0 flex-col items-end gap-1">
                  <span className="font-semibold">{formatUgx(payment.amount)}</span>
                  <Badge tone={status.tone}>{t(status.label)}</Badge>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
