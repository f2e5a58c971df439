import { formatKampalaLocal, type AdminPlan } from '@filamu/shared';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { errorMessage, isApiError } from '../../../lib/api.ts';
import { queryClient, queryKeys } from '../../../lib/query-client.ts';
import { toast } from '../../../lib/toast.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { useDeletePlan, useUpdatePlan } from './queries.ts';

/**
 * The API refuses (409) to delete a plan any user holds or any payment names (docs/decisions/0012): the
 * payment records must keep the plan they bought. This dialog says so in words and offers what to do
 * instead, hide or deactivate it, right there.
 */
function PlanInUseDialog({ plan, reason, onClose }: { plan: AdminPlan; reason: string; onClose: () => void }) {
  const update = useUpdatePlan();
  const [error, setError] = useState<string | null>(null);
  const retire = (body: { is_visible: false } | { is_active: false }) =>
    update.mutate(
      { id: plan.id, body },
      {
        onSuccess: () => {
          toast.success(
            'Plan updated successfully',
            `${plan.plan_name} is now ${'is_visible' in body ? 'hidden' : 'inactive'}.`,
          );
          onClose();
        },
        onError: (e) => setError(`Failed to update plan: ${errorMessage(e, 'Please try again.')}`),
      },
    );
  const n = plan.subscriber_count;
  return (
    <FormDialog
      open
      title={`“${plan.plan_name}” cannot be deleted`}
      onClose={onClose}
      description={<>Failed to delete plan: {reason}</>}
    >
      <div className="space-y-3 text-sm text-stone-700 dark:text-stone-300">
        <p>
          This plan is in use:{' '}
          {n > 0
            ? `${n} current subscriber${n === 1 ? ' holds' : 's hold'} it.`
            : 'a past subscriber held it or a payment was made for it.'}{' '}
          Payment records and subscriptions must keep the plan they rest on, so it cannot be removed.
        </p>
        <p>
          To stop selling it, <strong>hide</strong> it (customers no longer see it; you can still assign it) or{' '}
          <strong>deactivate</strong> it. Current subscribers keep access until it expires on{' '}
          {formatKampalaLocal(plan.global_expiry_date)} (Kampala).
        </p>
        {error && (
          <p role="alert" className="font-medium text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onClose} disabled={update.isPending}>
          Close
        </Button>
        {plan.is_visible && (
          <Button variant="secondary" onClick={() => retire({ is_visible: false })} loading={update.isPending}>
            Hide from customers
          </Button>
        )}
        {plan.is_active && (
          <Button onClick={() => retire({ is_active: false })} loading={update.isPending}>
            Deactivate plan
          </Button>
        )}
      </div>
    </FormDialog>
  );
}

/** Delete → the product's confirm question; a plan in use → the explanation above instead of a bare error. */
export function DeletePlanDialogs({
  plan,
  onClose,
  onDeleted,
}: {
  plan: AdminPlan | null;
  onClose: () => void;
  onDeleted: (plan: AdminPlan) => void;
}) {
  const remove = useDeletePlan();
  const [error, setError] = useState<string | null>(null);
  const [inUse, setInUse] = useState<{ plan: AdminPlan; reason: string } | null>(null);

  const close = () => {
    setError(null);
    remove.reset();
    onClose();
  };

  const confirm = () => {
    if (!plan) return;
    setError(null);
    remove.mutate(plan.id, {
      onSuccess: () => {
        toast.success('Plan deleted successfully', plan.plan_name);
        onDeleted(plan);
        close();
      },
      onError: (e) => {
        if (isApiError(e) && e.status === 409) {
          setInUse({ plan, reason: e.message });
          // The list may be older than the subscription that blocked the delete: refresh its counts.
          void queryClient.invalidateQueries({ queryKey: queryKeys.adminSubscriptionPlans });
          close();
        } else setError(`Failed to delete plan: ${errorMessage(e, 'Please check your connection and try again.')}`);
      },
    });
  };

  return (
    <>
      <ConfirmDialog
        open={plan !== null}
        title="Delete plan?"
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={confirm}
        onClose={close}
      >
        <p>Are you sure you want to delete the &quot;{plan?.plan_name}&quot; plan? This action cannot be undone.</p>
        {error && (
          <p role="alert" className="font-medium text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
      </ConfirmDialog>
      {inUse && <PlanInUseDialog plan={inUse.plan} reason={inUse.reason} onClose={() => setInUse(null)} />}
    </>
  );
}
