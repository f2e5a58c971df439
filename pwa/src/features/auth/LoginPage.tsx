import { contracts, isSignInIdentifier, looksLikeSignInEmail } from '@filamu/shared';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { Button } from '../../components/ui/Button.tsx';
import { Input, PasswordInput } from '../../components/ui/Input.tsx';
import { SegmentedChoice } from '../../components/ui/SegmentedChoice.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { getDeviceId } from '../../lib/device-id.ts';
import { t as translate, useT, type WebMessageId } from '../../lib/i18n.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { useSession, useSessionStore } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { AuthLayout, FormAlert } from './AuthLayout.tsx';
import { returnPath } from './return-path.ts';
import { withProof } from './with-proof.ts';

type Mode = 'user' | 'agent';

const ACCOUNT_TYPES = [
  { value: 'user', label: 'login.type.user' },
  { value: 'agent', label: 'login.type.agent' },
] as const satisfies readonly { value: Mode; label: WebMessageId }[];

interface Failure {
  title: string;
  message: string;
}

/** Product §8 wording for a failed sign-in. */
function describeFailure(mode: Mode, error: unknown): Failure {
  if (!(error instanceof ApiError)) {
    return { title: translate('login.failed'), message: translate('form.unexpected') };
  }
  if (mode === 'agent') {
    return { title: translate('login.failed.agent'), message: error.message || translate('login.failed.agent.text') };
  }
  return { title: translate('login.failed'), message: error.message || translate('login.failed.text') };
}

export default function LoginPage() {
  const t = useT();
  const navigate = useNavigate();
  const location = useLocation();
  const { status, isAdmin } = useSession();
  const [mode, setMode] = useState<Mode>('user');
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ identifier?: string; password?: string }>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [pending, setPending] = useState(false);
  const [checking, setChecking] = useState(false);

  if (!pending && (status === 'user' || status === 'agent')) {
    return <Navigate to={isAdmin ? '/admin' : '/dashboard'} replace />;
  }

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (!identifier.trim())
      next.identifier = mode === 'agent' ? t('form.email.required') : t('login.identifier.required');
    // Neither an email nor a phone number cannot be anyone's account: say what to type, not "Invalid credentials".
    else if (mode === 'agent' && !looksLikeSignInEmail(identifier.trim())) next.identifier = t('login.agent.hint');
    else if (mode === 'user' && !isSignInIdentifier(identifier)) next.identifier = t('login.identifier.hint');
    if (!password) next.password = t('form.password.required');
    setErrors(next);
    setFailure(null);
    if (next.identifier || next.password) return;

    setPending(true);
    try {
      const currentDeviceId = getDeviceId();
      if (mode === 'agent') {
        const result = await withProof(
          (proof) =>
            api(contracts.auth.agentLogin, { body: { email: identifier.trim(), password, currentDeviceId, proof } }),
          setChecking,
        );
        queryClient.clear();
        useSessionStore.getState().signInAgent(result.token, result.agent);
        toast.success(t('login.welcome.toast'));
        void navigate(returnPath(location.state, '/dashboard'), { replace: true });
      } else {
        const result = await withProof(
          (proof) =>
            api(contracts.auth.login, { body: { identifier: identifier.trim(), password, currentDeviceId, proof } }),
          setChecking,
        );
        queryClient.clear();
        queryClient.setQueryData(queryKeys.userProfile, result.user);
        useSessionStore.getState().signInUser(result.token, result.user);
        toast.success(t('login.welcome.toast'));
        void navigate(returnPath(location.state, result.user.isAdmin ? '/admin' : '/dashboard'), { replace: true });
      }
    } catch (error) {
      // Stays pending on success so the 'already signed in' redirect cannot race the navigation.
      setPending(false);
      // The server's shape check (the same as ours) belongs under the field, like ours.
      const shape = error instanceof ApiError && error.code === 'validation_error' ? error.issues[0] : undefined;
      if (shape && (shape.path === 'identifier' || shape.path === 'email')) {
        setErrors({ identifier: shape.message });
        return;
      }
      const f = describeFailure(mode, error);
      // Said once, above the form where the eye is; a toast would repeat it over the Sign In button.
      setFailure(f);
    }
  };

  return (
    <AuthLayout title={t('login.title')} pageTitle={t('login.pageTitle')} subtitle={t('login.subtitle')}>
      <SegmentedChoice
        label={t('login.type.label')}
        value={mode}
        options={ACCOUNT_TYPES.map((type) => ({ value: type.value, label: t(type.label) }))}
        onChange={(value) => {
          setMode(value);
          setErrors({});
          setFailure(null);
        }}
        className="mb-6"
      />

      {failure && <FormAlert title={failure.title} message={failure.message} />}

      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Input
          label={mode === 'agent' ? t('login.agent.email') : t('login.identifier')}
          name="identifier"
          type={mode === 'agent' ? 'email' : 'text'}
          autoComplete={mode === 'agent' ? 'email' : 'username'}
          inputMode={mode === 'agent' ? 'email' : undefined}
          placeholder={mode === 'agent' ? 'agent@example.com' : t('login.identifier.placeholder')}
          value={identifier}
          onChange={(e) => setIdentifier(e.target.value)}
          error={errors.identifier}
          required
        />
        <PasswordInput
          label={t('form.password')}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          required
        />
        {mode === 'user' && (
          <p className="-mt-1 text-right text-sm">
            <Link
              to="/forgot-password"
              className="rounded font-semibold text-brand-700 hover:underline dark:text-brand-300"
            >
              {t('login.forgot')}
            </Link>
          </p>
        )}
        <Button type="submit" size="lg" className="w-full" loading={pending}>
          {pending ? t('login.pending') : mode === 'agent' ? t('login.submit.agent') : t('action.signIn')}
        </Button>
        {/* A busy network's check (decision 0195) runs by itself; this says why the sign-in takes a moment. */}
        <p
          role="status"
          aria-live="polite"
          className={checking ? 'text-center text-sm text-stone-600 dark:text-stone-400' : 'sr-only'}
        >
          {checking ? t('auth.checkingConnection') : ''}
        </p>
      </form>
      {mode === 'agent' ? (
        // Agents never register: the admin creates their account and resets a forgotten password.
        <p className="mt-6 text-center text-sm text-stone-600 dark:text-stone-400">{t('login.agent.note')}</p>
      ) : (
        <p className="mt-6 text-center text-sm text-stone-600 dark:text-stone-400">
          {t('login.noAccount')}{' '}
          <Link to="/register" className="rounded font-semibold text-brand-700 hover:underline dark:text-brand-300">
            {t('login.register')}
          </Link>
        </p>
      )}
    </AuthLayout>
  );
}
