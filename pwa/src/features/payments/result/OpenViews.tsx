import { formatUgx, type VerifyPaymentResponse } from '@filamu/shared';
import { Button, LinkButton } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { SmartphoneIcon } from '../../../components/ui/icons.tsx';
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
  return (
    <Card className="text-center">
      <OutcomeMark tone="waiting">
        <SmartphoneIcon className="size-8" />
      </OutcomeMark>
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight">Still waiting for your payment</h1>
      <p className="mt-2 text-stone-700 dark:text-stone-300">
        We haven&apos;t received this payment yet. Approve it on your phone; your subscription is activated
        automatically when it arrives, even if you leave this page.
      </p>
      <ResultRows>
        <ResultRow label="Plan">{result.plan_name}</ResultRow>
        <ResultRow label="Amount">{formatUgx(result.amount)}</ResultRow>
        <ResultRow label="Reference">
          <span className="font-mono break-all">{result.transaction_id}</span>
        </ResultRow>
      </ResultRows>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <Button size="lg" className="flex-1" onClick={onCheck} loading={checking}>
          Check again
        </Button>
        <LinkButton to="/dashboard" size="lg" variant="outline" className="flex-1">
          Go to Dashboard
        </LinkButton>
      </div>
    </Card>
  );
}

/** Paid, but held for a person to look at (the amount did not match). */
export function ReviewView({ result }: { result: VerifyPaymentResponse }) {
  return (
    <Card>
      <h1 className="text-3xl font-extrabold tracking-tight">Payment under review</h1>
      <p className="mt-2 text-stone-700 dark:text-stone-300">
        We received a payment, but the amount didn&apos;t match the price of your plan. Our support team will review it
        and activate your subscription or refund you.
      </p>
      <ResultRows>
        <ResultRow label="Plan">{result.plan_name}</ResultRow>
        <ResultRow label="Reference">
          <span className="font-mono break-all">{result.transaction_id}</span>
        </ResultRow>
      </ResultRows>
      <div className="mt-4">
        <SupportContacts />
      </div>
      <LinkButton to="/dashboard" variant="outline" className="mt-6">
        Go to Dashboard
      </LinkButton>
    </Card>
  );
}

/** No payment of this person to show: no transaction in the address, an unknown one, or an agent. */
export function NotFoundView() {
  return (
    <Card className="text-center">
      <h1 className="text-3xl font-extrabold tracking-tight">We couldn&apos;t find that payment</h1>
      <p className="mt-2 text-stone-700 dark:text-stone-300">
        There is no payment with this reference on your account, so there is nothing to confirm here. Your payments are
        listed on your profile.
      </p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <LinkButton to="/subscription" size="lg" className="flex-1">
          View plans
        </LinkButton>
        <LinkButton to="/dashboard" size="lg" variant="outline" className="flex-1">
          Go to Dashboard
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
  return (
    <Card className="text-center">
      <h1 className="text-2xl font-extrabold tracking-tight">We couldn&apos;t check this payment</h1>
      <p className="mt-2 text-stone-700 dark:text-stone-300">{message}</p>
      <Button className="mt-6" onClick={onCheck} loading={checking}>
        Try again
      </Button>
    </Card>
  );
}
