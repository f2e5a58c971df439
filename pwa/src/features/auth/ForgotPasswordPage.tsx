import { contracts, isValidUgandaPhone, PASSWORD_MIN } from '@filamu/shared';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/Button.tsx';
import { Input, PasswordInput } from '../../components/ui/Input.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { getDeviceId } from '../../lib/device-id.ts';
import { t as translate, useT } from '../../lib/i18n.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { useSessionStore } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { AuthLayout, FormAlert } from './AuthLayout.tsx';
import { withProof } from './with-proof.ts';

type Step = 'ask' | 'reset';

const CODE_FIELD_ID = 'recovery-code';

const linkClasses = 'rounded font-semibold text-brand-700 hover:underline dark:text-brand-300';

/** What went wrong, in words; the server's own message when it gave one (rate limits say how long to wait). */
function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.message) return error.message;
  return translate('forgot.unreachable');
}

function identifierProblem(identifier: string): string | undefined {
  const value = identifier.trim();
  if (!value) return translate('forgot.identifier.required');
  if (!value.includes('@') && !isValidUgandaPhone(value)) return translate('forgot.identifier.invalid');
  return undefined;
}

/**
 * "Forgot password?" (decision 0148): a phone number or email ⇒ a 6-digit code by SMS (or mail) ⇒ the code and a new
 * password ⇒ signed in, every other device signed out.
 */
export default function ForgotPasswordPage() {
  const t = useT();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('ask');
  const [identifier, setIdentifier] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ identifier?: string; code?: string; password?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [checking, setChecking] = useState(false);

  const askForCode = async (event?: FormEvent<HTMLFormElement>) => {
    event?.preventDefault();
    const problem = identifierProblem(identifier);
    setErrors({ identifier: problem });
    setFailure(null);
    if (problem) return;
    setPending(true);
    try {
      const result = await api(contracts.auth.requestRecoveryCode, { body: { identifier: identifier.trim() } });
      setSentMessage(result.message);
      setCode('');
      setStep('reset');
      // The next thing to type is the code: move there (and tell screen readers where they are).
      requestAnimationFrame(() => document.getElementById(CODE_FIELD_ID)?.focus());
    } catch (error) {
      setFailure(failureMessage(error));
    } finally {
      setPending(false);
    }
  };

  const reset = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!/^\d{6}$/.test(code.trim())) next.code = t('forgot.code.invalid');
    if (password.length < PASSWORD_MIN) next.password = t('form.password.min', { min: PASSWORD_MIN });
    setErrors(next);
    setFailure(null);
    if (next.code || next.password) return;
    setPending(true);
    try {
      const result = await withProof(
        (proof) =>
          api(contracts.auth.resetPassword, {
            body: {
              identifier: identifier.trim(),
              code: code.trim(),
              newPassword: password,
              currentDeviceId: getDeviceId(),
              proof,
            },
          }),
        setChecking,
      );
      queryClient.clear();
      queryClient.setQueryData(queryKeys.userProfile, result.user);
      useSessionStore.getState().signInUser(result.token, result.user);
      toast.success(t('forgot.done'));
      void navigate('/dashboard', { replace: true });
    } catch (error) {
      setPending(false);
      const codeIssue = error instanceof ApiError ? error.issues.find((i) => i.path === 'code') : undefined;
      if (codeIssue) setErrors({ code: codeIssue.message });
      else setFailure(failureMessage(error));
    }
  };

  if (step === 'ask') {
    return (
      <AuthLayout title={t('forgot.title')} pageTitle={t('forgot.pageTitle')} subtitle={t('forgot.subtitle')}>
        {failure && <FormAlert title={t('forgot.sendFailed')} message={failure} />}
        <form onSubmit={askForCode} noValidate className="space-y-4">
          <Input
            label={t('forgot.identifier')}
            name="identifier"
            type="text"
            autoComplete="username"
            placeholder={t('forgot.identifier.placeholder')}
            hint={t('forgot.identifier.hint')}
            value={identifier}
            onChange={(e) => setIdentifier(e.target.value)}
            error={errors.identifier}
            required
          />
          <Button type="submit" size="lg" className="w-full" loading={pending}>
            {pending ? t('forgot.sending') : t('forgot.send')}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-stone-600 dark:text-stone-400">
          {t('forgot.remembered')}{' '}
          <Link to="/login" className={linkClasses}>
            {t('forgot.backToSignIn')}
          </Link>
        </p>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={t('forgot.code.title')}
      pageTitle={t('forgot.code.pageTitle')}
      subtitle={t('forgot.code.sentTo', { identifier: identifier.trim() })}
    >
      {sentMessage && (
        <p
          role="status"
          className="mb-5 rounded-xl bg-brand-50 p-3 text-sm text-brand-900 dark:bg-brand-950/60 dark:text-brand-100"
        >
          {sentMessage}
        </p>
      )}
      {failure && <FormAlert title={t('forgot.resetFailed')} message={failure} />}
      <form onSubmit={reset} noValidate className="space-y-4">
        <Input
          id={CODE_FIELD_ID}
          label={t('forgot.code')}
          name="code"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          placeholder="123456"
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
          error={errors.code}
          required
        />
        <PasswordInput
          label={t('forgot.newPassword')}
          name="newPassword"
          autoComplete="new-password"
          hint={t('forgot.newPassword.hint', { min: PASSWORD_MIN })}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          required
        />
        <Button type="submit" size="lg" className="w-full" loading={pending}>
          {pending ? t('forgot.saving') : t('forgot.save')}
        </Button>
        {/* A busy network's check (decision 0195) runs by itself; this says why saving takes a moment. */}
        <p
          role="status"
          aria-live="polite"
          className={checking ? 'text-center text-sm text-stone-600 dark:text-stone-400' : 'sr-only'}
        >
          {checking ? t('auth.checkingConnection') : ''}
        </p>
      </form>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-2 text-sm">
        <button type="button" className={linkClasses} onClick={() => void askForCode()} disabled={pending}>
          {t('forgot.resend')}
        </button>
        <button
          type="button"
          className={linkClasses}
          onClick={() => {
            setStep('ask');
            setErrors({});
            setFailure(null);
          }}
        >
          {t('forgot.another')}
        </button>
      </div>
    </AuthLayout>
  );
}
