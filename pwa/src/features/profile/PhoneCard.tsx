import { contracts, displayUgandaPhone, UgandaPhone, type UserProfile } from '@filamu/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { Input, PasswordInput } from '../../components/ui/Input.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { fieldIssues, useFormFields } from '../../lib/form.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { useSessionStore } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { ConfirmPhone } from './ConfirmPhone.tsx';
import { profileT, useProfileT } from './messages.ts';

type Field = 'newPhone' | 'currentPassword' | 'code';
type Errors = Partial<Record<Field, string>>;
const FIELDS: Field[] = ['newPhone', 'currentPassword', 'code'];
type Step = 'show' | 'number' | 'code' | 'confirm';

/** Server refusals onto their fields; a 409 is always about the number. */
function serverErrors(error: unknown): { fields: Errors; form: string | null } {
  if (!isApiError(error)) return { fields: {}, form: profileT('profile.tryAgain') };
  const fields = fieldIssues(error, FIELDS);
  if (error.code === 'conflict' && !fields.newPhone) fields.newPhone = error.message;
  return {
    fields,
    form: Object.keys(fields).length > 0 ? null : error.message || profileT('profile.tryAgain'),
  };
}

/**
 * Profile → Phone number (decision 0158): the number shown as people write it; changing it takes the password,
 * then the code sent to the new number, so a borrowed session or a typo cannot move the account's recovery.
 */
export function PhoneCard({ user }: { user: UserProfile }) {
  const t = useProfileT();
  const [step, setStep] = useState<Step>('show');
  // Only a server that says so: an older profile without the field asks nothing (decision 0197).
  const unconfirmed = Boolean(user.phone) && user.phoneVerified === false;
  const { values, setValues, field, formRef, formError, show } = useFormFields<Record<Field, string>>(
    { newPhone: '', currentPassword: '', code: '' },
    FIELDS,
  );
  const [sentTo, setSentTo] = useState('');
  const cardRef = useRef<HTMLDivElement>(null);

  // Focus follows the step: the first field of a form, or the button once back to reading.
  useEffect(() => {
    if (step === 'number') (formRef.current?.elements.namedItem('newPhone') as HTMLElement | null)?.focus();
    if (step === 'code') (formRef.current?.elements.namedItem('code') as HTMLElement | null)?.focus();
  }, [step, formRef]);

  const reset = () => {
    setValues({ newPhone: '', currentPassword: '', code: '' });
    show({}, null);
    setStep('show');
    setTimeout(() => cardRef.current?.querySelector<HTMLElement>('button[name=changePhone]')?.focus());
  };

  const ask = useMutation({
    mutationFn: () =>
      api(contracts.auth.requestPhoneChangeCode, {
        body: { newPhone: values.newPhone, currentPassword: values.currentPassword },
      }),
    onSuccess: (started) => {
      setSentTo(displayUgandaPhone(started.newPhone));
      setValues((v) => ({ ...v, currentPassword: '', code: '' }));
      show({}, null);
      setStep('code');
    },
    onError: (error) => {
      const found = serverErrors(error);
      show(found.fields, found.form);
    },
  });

  const confirm = useMutation({
    mutationFn: () => api(contracts.auth.changePhone, { body: { newPhone: values.newPhone, code: values.code } }),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.userProfile, updated);
      useSessionStore.getState().setUser(updated);
      toast.success(profileT('profile.phone.changed'));
      reset();
    },
    onError: (error) => {
      const found = serverErrors(error);
      // A 409 here means someone took the number meanwhile: back to choosing one.
      if (found.fields.newPhone) setStep('number');
      show(found.fields, found.form);
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (step === 'number') {
      const fields: Errors = {};
      const phone = UgandaPhone.safeParse(values.newPhone);
      if (!phone.success) fields.newPhone = phone.error.issues[0]?.message;
      else if (phone.data === user.phone && !unconfirmed) fields.newPhone = t('profile.phone.same');
      if (!values.currentPassword) fields.currentPassword = t('profile.phone.password.required');
      show(fields, null);
      if (Object.keys(fields).length === 0) ask.mutate();
    } else if (step === 'code') {
      const ok = /^\d{6}$/.test(values.code.trim());
      show(ok ? {} : { code: t('profile.phone.code.invalid') }, null);
      if (ok) confirm.mutate();
    }
  };

  return (
    <Card>
      <div ref={cardRef}>
        <CardTitle>{t('profile.phone.title')}</CardTitle>
        <p className="mt-2 text-lg font-medium tabular-nums text-stone-900 dark:text-stone-100" data-testid="phone">
          {user.phone ? displayUgandaPhone(user.phone) : t('profile.phone.none')}
        </p>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{t('profile.phone.use')}</p>
        {unconfirmed && (
          <p className="mt-2 text-sm font-medium text-amber-800 dark:text-amber-300">
            {t('profile.phone.unconfirmed')}
          </p>
        )}
        {step === 'confirm' && user.phone ? (
          <div className="mt-4">
            <ConfirmPhone
              phone={user.phone}
              onDone={() => {
                toast.success(profileT('profile.phone.confirmed'));
                reset();
              }}
            />
            <Button variant="ghost" className="mt-2" onClick={reset}>
              {t('profile.cancel')}
            </Button>
          </div>
        ) : step === 'show' ? (
          <div className="mt-4 flex flex-wrap gap-3">
            {unconfirmed && (
              <Button name="confirmPhone" onClick={() => setStep('confirm')}>
                {t('profile.phone.confirm')}
              </Button>
            )}
            <Button name="changePhone" variant="outline" onClick={() => setStep('number')}>
              {t('profile.phone.change')}
            </Button>
          </div>
        ) : (
          <form
            ref={formRef}
            onSubmit={submit}
            className="mt-4 space-y-4"
            noValidate
            aria-busy={ask.isPending || confirm.isPending || undefined}
          >
            {step === 'number' ? (
              <>
                <Input
                  label={t('profile.phone.new')}
                  type="tel"
                  inputMode="tel"
                  autoComplete="tel"
                  placeholder="0772 123 456"
                  maxLength={32}
                  {...field('newPhone')}
                />
                <PasswordInput
                  label={t('profile.phone.password')}
                  autoComplete="current-password"
                  {...field('currentPassword')}
                />
              </>
            ) : (
              <>
                <p role="status" className="text-sm text-stone-700 dark:text-stone-300">
                  {t('profile.phone.sent', { phone: sentTo })}
                </p>
                <Input
                  label={t('profile.phone.code')}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  {...field('code')}
                />
              </>
            )}
            {formError && (
              <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
                {formError}
              </p>
            )}
            <div className="flex flex-wrap gap-3">
              <Button type="submit" loading={ask.isPending || confirm.isPending}>
                {step === 'number' ? t('profile.phone.send') : t('profile.phone.save')}
              </Button>
              {step === 'code' && (
                <Button variant="outline" onClick={() => setStep('number')} disabled={confirm.isPending}>
                  {t('profile.phone.another')}
                </Button>
              )}
              <Button variant="outline" onClick={reset} disabled={ask.isPending || confirm.isPending}>
                {t('profile.cancel')}
              </Button>
            </div>
          </form>
        )}
      </div>
    </Card>
  );
}
