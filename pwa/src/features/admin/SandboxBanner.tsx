import { contracts } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { CreditCardIcon } from '../../components/ui/icons.tsx';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-client.ts';

/**
 * On every admin screen while the server runs the built-in DPO sandbox (ALLOW_PAYMENT_SANDBOX): charges are
 * simulated and grant plans, so nobody should mistake this console for one taking real money. The setting only
 * changes with a restart, so one answer per visit is enough.
 */
export function SandboxBanner() {
  const status = useQuery({
    queryKey: queryKeys.adminSystemStatus,
    queryFn: () => api(contracts.system.adminStatus),
    staleTime: Infinity,
  });
  if (!status.data?.paymentsSandbox) return null;
  return (
    <section
      aria-label="Payments sandbox"
      className="border-b border-amber-300 bg-amber-100 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <div className="mx-auto flex max-w-6xl items-start gap-3 px-4 py-2.5 text-sm sm:px-6">
        <CreditCardIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <p>
          <strong className="font-bold tracking-wide">SANDBOX — no real money.</strong> Payments go to the built-in DPO
          simulator: any charge can succeed and grant a plan without payment.
        </p>
      </div>
    </section>
  );
}
