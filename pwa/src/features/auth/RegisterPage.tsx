import { canonicalUgandaPhone, contracts, isValidUgandaPhone, networkOfNumber, PASSWORD_MIN } from '@filamu/shared';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { Button } from '../../components/ui/Button.tsx';
import { Input, PasswordInput } from '../../components/ui/Input.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { fieldIssues, useFormFields } from '../../lib/form.ts';
import { getDeviceId } from '../../lib/device-id.ts';
import { useLocaleStore, useT, type t as Translate } from '../../lib/i18n.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { useSession, useSessionStore } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { ConfirmPhone } from '../profile/ConfirmPhone.tsx';
import { AuthLayout, FormAlert } from './AuthLayout.tsx';

type Field = 'fullName' | 'email' | 'phone' | 'password';
type Errors = Partial<Record<Field, string>>;

const FIELDS: Field[] = ['fullName', 'email', 'phone', 'password'];

/** `name@host.tld`: one `@`, no spaces, a dot inside the host. Plain code: the regex for it backtracks. */
function looksLikeEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at < 1 || value.includes('@', at + 1) || /\s/.test(value)) return false;
  const host = value.slice(at + 1);
  const dot = host.indexOf('.', 1);
  return dot > 0 && dot < host.length - 1;
}

/** Any Uganda mobile number makes an account (decision 0160); only MTN and Airtel numbers can pay. */
function phoneHint(t: typeof Translate, phone: string): string {
  const { canonical, network } = networkOfNumber(phone);
  if (canonical && !network && canonical.startsWith('2567')) return t('register.phone.hint.cannotPay');
  return t('register.phone.hint');
}

function validate(t: typeof Translate, values: Record<Field, string>): Errors {
  const errors: Errors = {};
  if (!values.fullName.trim()) errors.fullName = t('register.fullName.required');
  if (!values.email.trim()) errors.email = t('form.email.required');
  else if (!looksLikeEmail(values.email.trim())) errors.email = t('register.email.invalid');
  if (!values.phone.trim()) errors.phone = t('register.phone.required');
  else if (!isValidUgandaPhone(values.phone)) errors.phone = t('register.phone.invalid');
  if (!values.password) errors.password = t('form.password.required');
  else if (values.password.length < PASSWORD_MIN) errors.password = t('form.password.min', { min: PASSWORD_MIN });
  return errors;
}

export default function RegisterPage() {
  const t = useT();
  const navigate = useNavigate();
  const { status } = useSession();
  const { values, setErrors, field } = useFormFields<Record<Field, string>>({
    fullName: '',
    email: '',
    phone: '',
    password: '',
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  /** After the account exists: the number to confirm, and whether its code is already on the way (a claim). */
  const [confirming, setConfirming] = useState<{ phone: string; alreadySent: boolean } | null>(null);

  if (confirming) {
    const next = (title: string) => {
      toast.success(title, t('register.done.text'));
      void navigate('/subscription', { replace: true });
    };
    return (
      <AuthLayout
        title={t('register.confirm.title')}
        pageTitle={t('register.confirm.title')}
        subtitle={t('register.confirm.subtitle')}
      >
        <ConfirmPhone
          phone={confirming.phone}
          alreadySent={confirming.alreadySent}
          onDone={() => next(t('register.confirm.done'))}
          onSkip={() => next(t('register.done'))}
        />
      </AuthLayout>
    );
  }

  if (!pending && (status === 'user' || status === 'agent')) return <Navigate to="/dashboard" replace />;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validate(t, values);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;

    setPending(true);
    try {
      const result = await api(contracts.auth.register, {
        body: {
          fullName: values.fullName.trim(),
          email: values.email.trim(),
          phone: values.phone.trim(),
          password: values.password,
          currentDeviceId: getDeviceId(),
          language: useLocaleStore.getState().locale,
        },
      });
      queryClient.clear();
      queryClient.setQueryData(queryKeys.userProfile, result.user);
      useSessionStore.getState().signInUser(result.token, result.user);
      // Decision 0197: a short step to confirm the number, which the person may skip. Without a phone in the answer,
      // the number was another account's unconfirmed one and its code is already on the way (decision 0199).
      const phone = result.user.phone ?? canonicalUgandaPhone(values.phone.trim());
      if (phone && result.user.phoneVerified === false) {
        setConfirming({ phone, alreadySent: result.user.phone === null });
      } else {
        toast.success(t('register.done'), t('register.done.text'));
        void navigate('/subscription', { replace: true });
      }
    } catch (error) {
      // Stays pending on success so the 'already signed in' redirect cannot race the navigation.
      setPending(false);
      if (error instanceof ApiError) {
        setErrors(fieldIssues(error, FIELDS));
        const message = error.message || t('register.failed.unexpected');
        // Said once, above the form where the eye is; a toast would repeat it over Create Account.
        setFailure(message);
      } else {
        setFailure(t('register.failed.retry'));
      }
    }
  };

  return (
    <AuthLayout title={t('register.title')} pageTitle={t('register.pageTitle')} subtitle={t('register.subtitle')}>
      {failure && <FormAlert title={t('register.failed')} message={failure} />}
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <Input label={t('register.fullName')} autoComplete="name" {...field('fullName')} required />
        <Input
          label={t('form.email')}
          type="email"
          inputMode="email"
          autoComplete="email"
          {...field('email')}
          required
        />
        <Input
          label={t('register.phone')}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder="0772 123 456"
          hint={phoneHint(t, values.phone)}
          {...field('phone')}
          required
        />
        <PasswordInput
          label={t('form.password')}
          autoComplete="new-password"
          hint={t('form.password.hint', { min: PASSWORD_MIN })}
          {...field('password')}
          required
        />
        <Button type="submit" size="lg" className="w-full" loading={pending}>
          {pending ? t('register.pending') : t('register.submit')}
        </Button>
      </form>
      <p className="mt-4 text-center text-xs text-stone-500 dark:text-stone-400">
        {t('register.agree')}{' '}
        <Link to="/terms" className="underline hover:text-brand-700 dark:hover:text-brand-300">
          {t('footer.terms')}
        </Link>
        {' · '}
        <Link to="/privacy-policy" className="underline hover:text-brand-700 dark:hover:text-brand-300">
          {t('footer.privacy')}
        </Link>
      </p>
      <p className="mt-4 text-center text-sm text-stone-600 dark:text-stone-400">
        {t('register.haveAccount')}{' '}
        <Link to="/login" className="rounded font-semibold text-brand-700 hover:underline dark:text-brand-300">
          {t('action.signIn')}
        </Link>
      </p>
    </AuthLayout>
  );
}
