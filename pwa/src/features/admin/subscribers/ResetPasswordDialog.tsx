import { type Subscriber, displayUgandaPhone } from '@filamu/shared';
import { useState } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { useResetSubscriberPassword } from './queries.ts';

/**
 * The admin's way back in for a person who cannot use "Forgot password?" (decision 0155): asked first, because the old
 * password and every session end at once; the new one is shown here only, and forgotten when the dialog closes.
 */
export function ResetPasswordDialog({ subscriber, onClose }: { subscriber: Subscriber | null; onClose: () => void }) {
  const reset = useResetSubscriberPassword();
  const [shown, setShown] = useState<{ who: Subscriber; password: string } | null>(null);
  const confirm = () => {
    if (!subscriber) return;
    reset.mutate(subscriber.id, {
      onSuccess: (result) => {
        setShown({ who: subscriber, password: result.newPassword });
        onClose();
      },
      onError: (error) => {
        toast.error('Could not reset the password', errorMessage(error, 'Please try again.'));
        onClose();
      },
    });
  };
  return (
    <>
      <ConfirmDialog
        open={subscriber !== null}
        title="Reset password?"
        confirmLabel="Reset Password"
        busy={reset.isPending}
        onConfirm={confirm}
        onClose={() => !reset.isPending && onClose()}
      >
        <p>
          Give {subscriber?.full_name || subscriber?.email} a new password? Their current password stops working and
          they are signed out on every device. The new password is shown once.
        </p>
      </ConfirmDialog>
      <FormDialog open={shown !== null} title="New password" onClose={() => setShown(null)}>
        {shown && <ShownPassword who={shown.who} password={shown.password} onDone={() => setShown(null)} />}
      </FormDialog>
    </>
  );
}

function ShownPassword({ who, password, onDone }: { who: Subscriber; password: string; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(password);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className="space-y-4">
      <p className="text-sm text-stone-700 dark:text-stone-300">
        <strong>{who.full_name || who.email}</strong> signs in with <strong>{who.email}</strong>
        {who.phone && (
          <>
            {' '}
            or <strong>{displayUgandaPhone(who.phone)}</strong>
          </>
        )}{' '}
        and this password.
      </p>
      <div className="flex items-end gap-2">
        <Input
          label="New password"
          readOnly
          value={password}
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 font-mono"
        />
        <Button variant="outline" onClick={() => void copy()}>
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p role="status" className="text-sm text-stone-700 dark:text-stone-300">
        {copied === 'yes' && 'Password copied to the clipboard.'}
        {copied === 'failed' && 'Could not copy automatically: select the password and copy it yourself.'}
      </p>
      <p className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
        This password is shown only once. Give it to them now: it cannot be shown again, only reset.
      </p>
      <div className="flex justify-end pt-2">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}
