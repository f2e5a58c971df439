import { contracts, displayUgandaPhone, type UserProfile } from '@filamu/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { Input } from '../../components/ui/Input.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { useSessionStore } from '../../lib/session.ts';
import { profileT, useProfileT } from './messages.ts';

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

const message = (error: unknown) => (isApiError(error) && error.message) || profileT('profile.tryAgain');

/**
 * "Confirm your phone" (decision 0197): a 6-digit code by SMS to the account's number, typed back. Until then
 * password recovery codes are not sent to the number.
 */
export function ConfirmPhone({ phone, alreadySent = false, onDone, onSkip }: ConfirmPhoneProps) {
  const t = useProfileT();
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
      setError(t('profile.phone.code.invalid'));
      focusCode();
      return;
    }
    setError(null);
    confirm.mutate();
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="space-y-4" aria-busy={busy || undefined}>
      <p role="status" className="text-sm text-stone-700 dark:text-stone-300">
        {sent ? t('profile.confirm.sent', { phone: shown }) : t('profile.confirm.willSend', { phone: shown })}
      </p>
      {sent && (
        <Input
          label={t('profile.phone.code')}
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
          {sent ? t('profile.confirm.submit') : t('profile.confirm.textMe')}
        </Button>
        {sent && !alreadySent && (
          <Button variant="outline" onClick={() => send.mutate()} disabled={busy}>
            {t('profile.confirm.resend')}
          </Button>
        )}
        {onSkip && (
          <Button variant="ghost" onClick={onSkip} disabled={busy}>
            {t('profile.confirm.skip')}
          </Button>
        )}
      </div>
    </form>
  );
}
