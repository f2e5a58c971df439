import { contracts, isMobileNetwork, MOBILE_MONEY, type MobileNetwork, type PaymentOption } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import type { Ref } from 'react';
import { Card } from '../../../components/ui/Card.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { api } from '../../../lib/api.ts';
import { InstructionList } from './InstructionList.tsx';
import { NetworkBadge } from './NetworkBadge.tsx';
import { SandboxNumbers } from './SandboxNumbers.tsx';
import { usePaymentsT } from '../messages.ts';
import { STEP_HEADING, ussdHint } from './steps.ts';

/** Both Uganda networks without the gateway's texts, shown when the options cannot be loaded (product §8). */
const DEFAULT_OPTIONS: PaymentOption[] = (Object.keys(MOBILE_MONEY) as MobileNetwork[]).map((network) => ({
  paymentname: network,
  logo: '',
  instructions: '',
  country: 'Uganda',
  countryCode: 'UG',
}));

/**
 * Both networks side by side at the top, so a phone shows both without scrolling; how each works comes once,
 * below, folded away (decision 0182).
 */
export function MethodStep({
  token,
  headingRef,
  onChoose,
}: {
  token: string;
  headingRef: Ref<HTMLHeadingElement>;
  onChoose: (network: MobileNetwork) => void;
}) {
  const t = usePaymentsT();
  const options = useQuery({
    queryKey: ['paymentOptions', token],
    queryFn: () => api(contracts.payments.paymentOptions, { params: { token } }),
    staleTime: Infinity,
    retry: false,
  });

  const offered = (options.data?.mobileoption ?? []).filter((o) => isMobileNetwork(o.paymentname));
  // Product §8: when the gateway's list fails, both Uganda networks are offered anyway; said here, not in a toast.
  const fallback = options.isError || (options.isSuccess && offered.length === 0);
  const list = fallback ? DEFAULT_OPTIONS : offered;

  return (
    <Card className="p-4 sm:p-6">
      <h2 ref={headingRef} className={STEP_HEADING}>
        {t('payments.method.title')}
      </h2>
      {options.isPending ? (
        <div className="flex justify-center py-6 text-brand-700 dark:text-brand-400">
          <Spinner className="size-8" label={t('payments.method.loading')} />
        </div>
      ) : (
        <>
          <ul className="mt-3 grid grid-cols-2 gap-3">
            {list.map((option) => {
              const network = MOBILE_MONEY[option.paymentname as MobileNetwork];
              return (
                <li key={option.paymentname} className="min-w-0">
                  <button
                    type="button"
                    onClick={() => onChoose(option.paymentname as MobileNetwork)}
                    className="flex h-full min-h-20 w-full flex-col items-center justify-center gap-2 rounded-2xl border-2 border-stone-300 p-3 text-center text-sm font-bold break-words hover:border-brand-600 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:border-stone-600 dark:hover:border-brand-400 dark:hover:bg-stone-800"
                  >
                    <NetworkBadge network={network.id} />
                    <span>{t('payments.method.use', { network: network.name })}</span>
                  </button>
                </li>
              );
            })}
          </ul>
          {fallback && (
            <p role="status" className="mt-3 text-sm text-stone-600 dark:text-stone-400">
              {t('payments.method.fallback')}
            </p>
          )}
          {options.data?.sandbox && <SandboxNumbers />}
          <div className="mt-4 grid gap-4 border-t border-stone-200 pt-4 text-sm sm:grid-cols-2 dark:border-stone-700">
            {list.map((option) => {
              const network = MOBILE_MONEY[option.paymentname as MobileNetwork];
              return (
                <section key={option.paymentname} aria-labelledby={`how-${network.id}`} className="min-w-0">
                  <h3 id={`how-${network.id}`} className="font-semibold">
                    {t('payments.method.how', { network: network.name })}
                  </h3>
                  <InstructionList
                    text={option.instructions}
                    label={t('payments.method.howLabel', { network: network.name })}
                    className="mt-1"
                  />
                  <p className="mt-1 text-stone-700 dark:text-stone-300">{ussdHint(network)}</p>
                </section>
              );
            })}
          </div>
        </>
      )}
    </Card>
  );
}
