import { formatUgx, type VerifyPaymentResponse } from '@filamu/shared';
import { Button, LinkButton } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { SmartphoneIcon } from '../../../components/ui/icons.tsx';
import { usePaymentsT } from '../messages.ts';
import { SupportContacts } from '../SupportContacts.tsx';
import { OutcomeMark, ResultRow, ResultRows } from './ResultRows.tsx';

/** Still pending at the gateway: nothing is claimed yet. */
export function WaitingView({
  result,
  checking,
  onCheck,
}: {
  result: VerifyPaymentResponse;
  checking: boolean;
  onCheck: () => void;
}) {
  const t = usePaymentsT();
  return (
    <Card className="text-center">
      <OutcomeMark tone="waiting">
        <SmartphoneIcon className="size-8" />
      </OutcomeMark>
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight">{t('payments.result.waitingTitle')}</h1>
      <p className="mt-2 text-stone-700 dark:text-stone-300">{t('payments.result.waitingText')}</p>
      <ResultRows>
        <ResultRow label={t('payments.common.plan')}>{result.plan_name}</ResultRow>
        <ResultRow label={t('payments.common.amount')}>{formatUgx(result.amount)}</ResultRow>
        <ResultRow label={t('payments.common.reference')}>
          <span className="font-mono break-all">{result.transaction_id}</span>
        </ResultRow>
      </ResultRows>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <Button size="lg" className="flex-1" onClick={onCheck} loading={checking}>
          {t('payments.common.checkAgain')}
        </Button>
        <LinkButton to="/dashboard" size="lg" variant="outline" className="flex-1">
          {t('payments.common.goDashboard')}
        </LinkButton>
      </div>
    </Card>
  );
}

/** Paid, but held for a person to look at (the amount did not match). */
export function ReviewView({ result }: { result: VerifyPaymentResponse }) {
  const t = usePaymentsT();
  return (
    <Card>
      <h1 className="text-3xl font-extrabold tracking-tight">{t('payments.common.paymentUnderReview')}</h1>
      <p className="mt-2 text-stone-700 dark:text-stone-300">{t('payments.common.reviewText')}</p>
      <ResultRows>
        <ResultRow label={t('payments.common.plan')}>{result.plan_name}</ResultRow>
        <ResultRow label={t('payments.common.reference')}>
          <span className="font-mono break-all">{result.transaction_id}</span>
        </ResultRow>
      </ResultRows>
      <div className="mt-4">
        <SupportContacts />
      </div>
      <LinkButton to="/dashboard" variant="outline" className="mt-6">
        {t('payments.common.goDashboard')}
      </LinkButton>
    </Card>
  );
}

/** No payment of this person to show: no transaction in the address, an unknown one, or an agent. */
export function NotFoundView() {
  const t = usePaymentsT();
  return (
    <Card className="text-center">
      <h1 className="text-3xl font-extrabold tracking-tight">{t('payments.result.notFoundTitle')}</h1>
      <p className="mt-2 text-stone-700 dark:text-stone-300">{t('payments.result.notFoundText')}</p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <LinkButton to="/subscription" size="lg" className="flex-1">
          {t('payments.common.viewPlans')}
        </LinkButton>
        <LinkButton to="/dashboard" size="lg" variant="outline" className="flex-1">
          {t('payments.common.goDashboard')}
        </LinkButton>
      </div>
    </Card>
  );
}

/** The server could not be asked (offline, a server error): say so and offer to ask again. */
export function UncheckedView({
  message,
  checking,
  onCheck,
}: {
  message: string;
  checking: boolean;
  onCheck: () => void;
}) {
  const t = usePaymentsT();
  return (
    <Card className="text-center">
      <h1 className="text-2xl font-extrabold tracking-tight">{t('payments.result.uncheckedTitle')}</h1>
      <p className="mt-2 text-stone-700 dark:text-stone-300">{message}</p>
      <Button className="mt-6" onClick={onCheck} loading={checking}>
        {t('payments.result.tryAgain')}
      </Button>
    </Card>
  );
}
