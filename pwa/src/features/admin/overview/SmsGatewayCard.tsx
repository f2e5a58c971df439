import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { gatewayMoney } from '../messages/presentation.ts';
import { useSmsGateway } from '../messages/queries.ts';

/** The SMS gateway's balance as it reports it (decision 0157), or "unavailable" when it does not say. */
export function SmsGatewayCard() {
  const gateway = useSmsGateway();
  const data = gateway.data;
  const balance = data?.state === 'ok' && data.balance ? gatewayMoney(data.balance) : 'Unavailable';
  return (
    <Card>
      <CardTitle>SMS gateway</CardTitle>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        {data?.gateway === 'simulator'
          ? "The built-in simulator: no text reaches a phone. The balance is the simulator's."
          : "Africa's Talking, which sends recovery codes, receipts and reminders."}
      </p>
      <p className="mt-3 text-2xl font-bold tabular-nums" aria-live="polite" aria-busy={gateway.isPending || undefined}>
        <span className="sr-only">Balance: </span>
        {gateway.isPending ? '…' : gateway.isError ? 'Unavailable' : balance}
      </p>
      {(gateway.isError || data?.state === 'unavailable') && (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          The gateway did not report its balance. Messages still go out; check its dashboard.
        </p>
      )}
    </Card>
  );
}
