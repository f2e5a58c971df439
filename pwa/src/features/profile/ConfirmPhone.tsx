import { contracts, displayUgandaPhone, type UserProfile } from '@filamu/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { Input } from '../../components/ui/Input.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { useSessionStore } from '../../lib/session.ts';

interface ConfirmPhoneProps {
  /** Canonical 256XXXXXXXXX: the number being confirmed. */
  phone: string;
  /**
   * The code is already on its way (a number another account had registered but never confirmed, decision 0199):
   * no "Text me a code" first, and no resend here (that goes through the profile's phone change, with the password).
   */
  alreadySent?: boolean;
  onDone: (user: UserProfile) => void;
  /** "Skip for now" after registration; absent on the profile. */
  onSkip?: () => void;
}

const message = (error: unknown) => (isApiError(error) && error.message) || 'Please try again.';

/**
 * "Confirm your phone" (decision 0197): a 6-digit code by SMS to the account's number, typed back. Until then
 * password recovery codes are not sent to the number.
 */
export function ConfirmPhone({ phone, alreadySent = false, onDone, onSkip }: ConfirmPhoneProps) {
  const [sent, setSent] = useState(alreadySent);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusCode = () => (formRef.current?.elements.namedItem('code') as HTMLElement | null)?.focus();
  const shown = displayUgandaPhone(phone);

  useEffect(() => {
    if (sent) (formRef.current?.elements.namedItem('code') as HTMLElement | null)?.focus();
  }, [sent]);

  const send = useMutation({
    mutationFn: () => api(contracts.auth.requestPhoneProofCode, { body: {} }),
    onSuccess: () => {
      setError(null);
      setSent(true);
    },
    onError: (e) => setError(message(e)),
  });
  const confirm = useMutation({
    mutationFn: () => api(contracts.auth.changePhone, { body: { newPhone: phone, code: code.trim() } }),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.userProfile, updated);
      useSessionStore.getState().setUser(updated);
      onDone(updated);
    },
    onError: (e) => {
      setError(message(e));
      focusCode();
    },
  });
  const busy = send.isPending || confirm.isPending;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!sent) return send.mutate();
    if (!/^\d{6}$/.test(code.trim())) {
      setError('The code is the 6 digits we sent you.');
      focusCode();
      return;
    }
    setError(null);
    confirm.mutate();
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-4" aria-busy={busy || undefined}>
      <p role="status" className="text-sm text-stone-700 dark:text-stone-300">
        {sent
          ? `We sent a 6-digit code to ${shown}. It works for 10 minutes.`
          : `We will text a 6-digit code to ${shown}. Password recovery codes go only to a confirmed number.`}
      </p>
      {sent && (
        <Input
          label="Code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      )}
      <p aria-live="assertive" className="text-sm font-medium text-red-700 empty:hidden dark:text-red-400">
        {error ?? ''}
      </p>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" loading={busy}>
          {sent ? 'Confirm' : 'Text me a code'}
        </Button>
        {sent && !alreadySent && (
          <Button variant="outline" onClick={() => send.mutate()} disabled={busy}>
            Send a new code
          </Button>
        )}
        {onSkip && (
          <Button variant="ghost" onClick={onSkip} disabled={busy}>
            Skip for now
          </Button>
        )}
      </div>
    </form>
  );
}
