import { contracts, type AdminPayment } from '@filamu/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from '../../../components/ui/Button.tsx';
import { api, errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { RECHECK_TITLE } from './presentation.ts';
import { afterPaymentChange } from './queries.ts';

/** "Check with DPO" on a pending row: the reconciler's verify + settle, now; the answer comes back as a toast. */
export function RecheckButton({ payment }: { payment: AdminPayment }) {
  const client = useQueryClient();
  const recheck = useMutation({
    mutationFn: () => api(contracts.adminPayments.recheckPayment, { params: { id: payment.id } }),
    onSuccess: async ({ payment: after, message }) => {
      const notify =
        after.status === 'completed' ? toast.success : after.status === 'pending' ? toast.info : toast.error;
      notify(RECHECK_TITLE[after.status], message);
      await afterPaymentChange(client);
    },
    onError: async (error) => {
      toast.error('Could not check with DPO', errorMessage(error, 'Check your connection and try again.'));
      await afterPaymentChange(client);
    },
  });
  return (
    <Button
      size="sm"
      variant="outline"
      className="whitespace-nowrap"
      loading={recheck.isPending}
      onClick={() => recheck.mutate()}
      aria-label={`Check with DPO: payment by ${payment.user?.email ?? 'deleted account'}`}
    >
      {recheck.isPending ? 'Checking…' : 'Check with DPO'}
    </Button>
  );
}
