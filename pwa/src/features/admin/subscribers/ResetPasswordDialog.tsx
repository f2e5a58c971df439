import { type ResetSubscriberPasswordResponse, type Subscriber, phoneForPeople } from '@filamu/shared';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { FormDialog } from '../components/FormDialog.tsx';
import { handOverClasses, ShownPassword } from '../components/ShownPassword.tsx';
import { useResetSubscriberPassword } from './queries.ts';
import { smsPlan, smsResult } from './support-sms.ts';

/**
 * The admin's way back in for a person who cannot use "Forgot password?" (decision 0155): asked first, because the old
 * password and every session end at once; the new one is shown here once, and forgotten when the dialog closes. A
 * confirmed phone gets it by SMS; an unconfirmed one gets nothing, and the admin passes it on (decision 0214).
 */
export function ResetPasswordDialog({ subscriber, onClose }: { subscriber: Subscriber | null; onClose: () => void }) {
  const reset = useResetSubscriberPassword();
  const [shown, setShown] = useState<{ who: Subscriber; result: ResetSubscriberPasswordResponse } | null>(null);
  const confirm = () => {
    if (!subscriber) return;
    reset.mutate(subscriber.id, {
      onSuccess: (result) => {
        setShown({ who: subscriber, result });
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
        {subscriber && (
          <p>
            {subscriber.phone_confirmed
              ? `They get it by SMS at ${phoneForPeople(subscriber.phone)}.`
              : `${smsPlan(subscriber.phone ? 'phone_not_confirmed' : 'no_phone', null)} Give it to them yourself.`}
          </p>
        )}
      </ConfirmDialog>
      <FormDialog open={shown !== null} title="New password" onClose={() => setShown(null)}>
        {shown && <NewPassword who={shown.who} result={shown.result} onDone={() => setShown(null)} />}
      </FormDialog>
    </>
  );
}

function NewPassword({
  who,
  result,
  onDone,
}: {
  who: Subscriber;
  result: ResetSubscriberPasswordResponse;
  onDone: () => void;
}) {
  return (
    <ShownPassword
      label="New password"
      password={result.newPassword}
      afterwards="It cannot be shown again, only reset."
      whatsapp={result.whatsappLink ? { href: result.whatsappLink, label: 'Send via WhatsApp' } : null}
      notes={
        <p
          className={
            result.sms === 'queued' ? 'text-sm font-medium text-stone-800 dark:text-stone-200' : handOverClasses
          }
        >
          {smsResult(result.sms, who.phone)}
          {result.sms !== 'queued' && ' Give the password to them yourself, for example on a call.'}
        </p>
      }
      onDone={onDone}
    >
      <strong>{who.full_name || who.email}</strong> signs in with <strong>{who.email}</strong>
      {who.phone && (
        <>
          {' '}
          or <strong>{phoneForPeople(who.phone)}</strong>
        </>
      )}{' '}
      and this password.
    </ShownPassword>
  );
}
