import { type Subscriber, formatDate } from '@filamu/shared';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/Badge.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { choosablePlans, planOptionLabel } from './plan-options.ts';
import { useAdminPlans, useManageSubscription } from './queries.ts';
import { SelectField } from '../components/SelectField.tsx';
import { subscriberLine } from './subscriber-line.ts';

type Action = 'activate_extend' | 'deactivate';

/** Product §2 Manage Subscription: activate/extend on a plan, or deactivate; shows where the subscriber stands now. */
export function ManageSubscriptionDialog({
  subscriber,
  onClose,
}: {
  subscriber: Subscriber | null;
  onClose: () => void;
}) {
  return (
    <FormDialog
      open={subscriber !== null}
      onClose={onClose}
      title="Manage Subscription"
      description={subscriberLine(subscriber)}
    >
      {/* Keyed so each subscriber starts from a clean form. */}
      {subscriber && <ManageForm key={subscriber.id} subscriber={subscriber} onClose={onClose} />}
    </FormDialog>
  );
}

function ManageForm({ subscriber, onClose }: { subscriber: Subscriber; onClose: () => void }) {
  const [action, setAction] = useState<Action>('activate_extend');
  const [planId, setPlanId] = useState('');
  const [planError, setPlanError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const plans = useAdminPlans(true);
  const manage = useManageSubscription();
  const options = choosablePlans(plans.data?.plans ?? [], new Date());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (action === 'activate_extend' && !planId) {
      setPlanError('Please select a subscription plan.');
      document.getElementById('manage-plan')?.focus();
      return;
    }
    const body =
      action === 'activate_extend' ? { action, subscription_plan_id: planId } : ({ action: 'deactivate' } as const);
    manage.mutate(
      { id: subscriber.id, body },
      {
        onSuccess: (result) => {
          toast.success('Subscription updated', `${subscriber.email}: ${result.message}`);
          onClose();
        },
        onError: (error) => setFormError(`Failed to manage subscription: ${errorMessage(error, 'Please try again.')}`),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 rounded-xl bg-stone-50 p-4 text-sm dark:bg-stone-950">
        <dt className="font-medium text-stone-600 dark:text-stone-400">Current status</dt>
        <dd>
          <Badge tone={subscriber.issubscribed ? 'success' : 'neutral'}>
            {subscriber.issubscribed ? 'Active' : 'None'}
          </Badge>
        </dd>
        <dt className="font-medium text-stone-600 dark:text-stone-400">Plan</dt>
        <dd>{subscriber.subscription_plan ?? 'No Plan'}</dd>
        <dt className="font-medium text-stone-600 dark:text-stone-400">Ends</dt>
        <dd>{formatDate(subscriber.subscription_end_date)}</dd>
      </dl>

      <SelectField label="Action" value={action} onChange={(e) => setAction(e.target.value as Action)}>
        <option value="activate_extend">Activate / Extend Subscription</option>
        <option value="deactivate">Deactivate Subscription</option>
      </SelectField>

      {action === 'activate_extend' && (
        <>
          <SelectField
            id="manage-plan"
            label="Subscription plan"
            value={planId}
            error={planError}
            disabled={plans.isPending}
            hint={
              plans.isPending
                ? 'Loading plans…'
                : 'The subscription runs until the plan’s expiry date; every subscriber of a plan ends together.'
            }
            onChange={(e) => {
              setPlanId(e.target.value);
              setPlanError(null);
            }}
          >
            <option value="">Select a plan</option>
            {options.map((plan) => (
              <option key={plan.id} value={plan.id}>
                {planOptionLabel(plan)}
              </option>
            ))}
          </SelectField>
          {plans.isError && (
            <LoadFailure
              look="line"
              what="subscription plans"
              error={plans.error}
              onRetry={() => void plans.refetch()}
            />
          )}
          {plans.isSuccess && options.length === 0 && (
            <p className="text-sm text-stone-700 dark:text-stone-300">
              Every plan has expired. Add a plan or move a plan’s expiry date in{' '}
              <Link to="/admin/plans" className="font-semibold text-brand-800 underline dark:text-brand-300">
                Plans
              </Link>
              .
            </p>
          )}
        </>
      )}

      {formError && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
          {formError}
        </p>
      )}

      <div className="flex flex-wrap justify-end gap-3 pt-2">
        <Button variant="outline" onClick={onClose} disabled={manage.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={manage.isPending}>
          {manage.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
      </div>
    </form>
  );
}
