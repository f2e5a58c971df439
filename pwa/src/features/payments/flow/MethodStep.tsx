import {
  contracts,
  isMobileNetwork,
  MOBILE_MONEY,
  ussdFallback,
  type MobileNetwork,
  type PaymentOption,
} from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import type { Ref } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { api } from '../../../lib/api.ts';
import { InstructionList } from './InstructionList.tsx';
import { NetworkBadge } from './NetworkBadge.tsx';
import { STEP_HEADING } from './steps.ts';

/** Both Uganda networks without the gateway's texts, shown when the options cannot be loaded (product §8). */
const DEFAULT_OPTIONS: PaymentOption[] = (Object.keys(MOBILE_MONEY) as MobileNetwork[]).map((network) => ({
  paymentname: network,
  logo: '',
  instructions: '',
  country: 'Uganda',
  countryCode: 'UG',
}));

function NetworkOption({ option, onChoose }: { option: PaymentOption; onChoose: () => void }) {
  const network = MOBILE_MONEY[option.paymentname as MobileNetwork];
  const headingId = `network-${network.id}`;
  return (
    <li className="flex min-w-0 flex-col gap-3 rounded-2xl border-2 border-stone-200 p-4 dark:border-stone-700">
      <div className="flex items-center gap-3">
        <NetworkBadge network={network.id} />
        <h3 id={headingId} className="min-w-0 text-lg font-bold break-words">
          {network.name}
        </h3>
      </div>
      <InstructionList text={option.instructions} label={`How paying with ${network.name} works`} />
      <ul className="space-y-1 text-sm text-stone-700 dark:text-stone-300">
        <li>{ussdFallback(network)}</li>
        <li>Ensure you have sufficient balance on your {network.name} account.</li>
      </ul>
      <Button variant="outline" className="mt-auto w-full" onClick={onChoose}>
        Use {network.name}
      </Button>
    </li>
  );
}

export function MethodStep({
  token,
  headingRef,
  onChoose,
}: {
  token: string;
  headingRef: Ref<HTMLHeadingElement>;
  onChoose: (network: MobileNetwork) => void;
}) {
  const options = useQuery({
    queryKey: ['paymentOptions', token],
    queryFn: async () => (await api(contracts.payments.paymentOptions, { params: { token } })).mobileoption,
    staleTime: Infinity,
    retry: false,
  });

  const offered = (options.data ?? []).filter((o) => isMobileNetwork(o.paymentname));
  // Product §8: when the gateway's list fails, both Uganda networks are offered anyway; said here, not in a toast.
  const fallback = options.isError || (options.isSuccess && offered.length === 0);
  const list = fallback ? DEFAULT_OPTIONS : offered;

  return (
    <Card>
      <h2 ref={headingRef} className={STEP_HEADING}>
        Choose your mobile money network
      </h2>
      {options.isPending ? (
        <div className="flex justify-center py-10 text-brand-700 dark:text-brand-400">
          <Spinner className="size-8" label="Loading payment methods" />
        </div>
      ) : (
        <>
          {fallback && (
            <p role="status" className="mt-2 text-sm text-stone-600 dark:text-stone-400">
              Showing the Uganda mobile money options; the payment service did not send its own list.
            </p>
          )}
          <ul className="mt-4 grid gap-4 sm:grid-cols-2">
            {list.map((option) => (
              <NetworkOption
                key={option.paymentname}
                option={option}
                onChoose={() => onChoose(option.paymentname as MobileNetwork)}
              />
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
