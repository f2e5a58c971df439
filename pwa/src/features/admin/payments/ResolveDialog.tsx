import { contracts, formatUgx, REVIEW_NOTE_MAX, type AdminPayment, phoneForPeople } from '@filamu/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { fieldClasses } from '../../../components/ui/Input.tsx';
import { api, errorMessage, isApiError } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { MNO_LABEL, reportedAmount } from './presentation.ts';
import { afterPaymentChange } from './queries.ts';

type Action = 'activate' | 'refuse';

const CHOICES: Array<{ value: Action; label: string; hint: string }> = [
  {
    value: 'activate',
    label: 'Activate subscription',
    hint: 'DPO shows the money arrived: put the payer on the plan and send the receipt.',
  },
  { value: 'refuse', label: 'Refuse payment', hint: 'Mark it failed; arrange any refund with the payer.' },
];

/** The decision on a `review` payment: what DPO said, expected vs paid, activate or refuse, and a required note. */
export function ResolveDialog({ payment, onClose }: { payment: AdminPayment | null; onClose: () => void }) {
  return (
    <FormDialog
      open={payment !== null}
      onClose={onClose}
      title="Resolve payment"
      description="The amount or reference did not match. Check the payment in DPO, then decide."
      wide
    >
      {payment && <ResolveForm key={payment.id} payment={payment} onClose={onClose} />}
    </FormDialog>
  );
}

function ResolveForm({ payment, onClose }: { payment: AdminPayment; onClose: () => void }) {
  const client = useQueryClient();
  const noteId = useId();
  const [action, setAction] = useState<Action>('activate');
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const resolve = useMutation({
    mutationFn: () =>
      api(contracts.adminPayments.resolvePayment, { params: { id: payment.id }, body: { action, note } }),
    onSuccess: async (result) => {
      toast.success(result.message, `${payment.user?.email ?? 'Deleted account'} · ${payment.planName}`);
      onClose();
      await afterPaymentChange(client);
    },
    onError: async (error) => {
      setFormError(errorMessage(error, 'Could not save the decision. Check your connection and try again.'));
      // Someone else decided first: show the list as it is now.
      if (isApiError(error) && error.status === 409) await afterPaymentChange(client);
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFormError(null);
    if (!note.trim()) {
      setNoteError('A note is required: say what you checked in DPO.');
      document.getElementById(noteId)?.focus();
      return;
    }
    resolve.mutate();
  };

  const paid = reportedAmount(payment);
  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-busy={resolve.isPending || undefined}>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-stone-600 dark:text-stone-400">Payer</dt>
        <dd>{payment.user ? `${payment.user.fullName} (${payment.user.email})` : 'Deleted account'}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Plan</dt>
        <dd>{payment.planName}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Phone</dt>
        <dd>
          {phoneForPeople(payment.phone)} {payment.mno ? `(${MNO_LABEL[payment.mno] ?? payment.mno})` : ''}
        </dd>
        <dt className="text-stone-600 dark:text-stone-400">Reference</dt>
        <dd className="font-mono">{payment.reference}</dd>
        <dt className="text-stone-600 dark:text-stone-400">DPO reference</dt>
        <dd className="break-all">{payment.dpoReference ?? payment.dpoToken ?? '—'}</dd>
        <dt className="text-stone-600 dark:text-stone-400">DPO said</dt>
        <dd>
          {payment.explanation}
          {payment.resultCode ? ` (code ${payment.resultCode})` : ''}
        </dd>
        <dt className="text-stone-600 dark:text-stone-400">Expected</dt>
        <dd className="tabular-nums">{formatUgx(payment.amount)}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Paid (per DPO)</dt>
        <dd className="tabular-nums">{paid ?? 'Not reported — check in DPO'}</dd>
      </dl>

      <fieldset>
        <legend className="mb-2 text-sm font-medium text-stone-800 dark:text-stone-200">Decision</legend>
        <div className="space-y-2">
          {CHOICES.map((choice) => (
            <label
              key={choice.value}
              className={cn(
                'flex cursor-pointer gap-3 rounded-xl border p-3',
                action === choice.value
                  ? 'border-brand-700 bg-brand-50 dark:border-brand-400 dark:bg-brand-950'
                  : 'border-stone-300 dark:border-stone-700',
              )}
            >
              <input
                type="radio"
                name="action"
                value={choice.value}
                checked={action === choice.value}
                onChange={() => setAction(choice.value)}
                className="mt-1 accent-brand-700"
              />
              <span>
                <span className="block font-semibold">{choice.label}</span>
                <span className="block text-sm text-stone-600 dark:text-stone-400">{choice.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <div>
        <label htmlFor={noteId} className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200">
          Note (required)
        </label>
        <textarea
          id={noteId}
          value={note}
          required
          maxLength={REVIEW_NOTE_MAX}
          rows={3}
          aria-invalid={noteError ? true : undefined}
          aria-describedby={`${noteId}-hint${noteError ? ` ${noteId}-error` : ''}`}
          onChange={(event) => {
            setNote(event.target.value);
            if (noteError) setNoteError(null);
          }}
          className={cn(
            fieldClasses,
            noteError ? 'border-red-500 dark:border-red-400' : 'border-stone-300 dark:border-stone-700',
          )}
        />
        <p id={`${noteId}-hint`} className="mt-1.5 text-sm text-stone-600 dark:text-stone-400">
          What you checked and why — kept with the payment. {note.length}/{REVIEW_NOTE_MAX}
        </p>
        {noteError && (
          <p id={`${noteId}-error`} className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
            {noteError}
          </p>
        )}
      </div>

      {formError && (
        <p
          role="alert"
          className="rounded-xl bg-red-50 p-3 text-sm font-medium text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {formError}
        </p>
      )}

      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onClose} disabled={resolve.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant={action === 'refuse' ? 'danger' : 'primary'} loading={resolve.isPending}>
          {action === 'refuse' ? 'Refuse payment' : 'Activate subscription'}
        </Button>
      </div>
    </form>
  );
}
