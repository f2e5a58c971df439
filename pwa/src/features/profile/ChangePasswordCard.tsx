import { contracts } from '@filamu/shared';
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { PasswordInput } from '../../components/ui/Input.tsx';
import { api, isApiError } from '../../lib/api.ts';
import { fieldIssues, useFormFields } from '../../lib/form.ts';
import { toast } from '../../lib/toast.ts';
import { profileT, useProfileT } from './messages.ts';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';
type Errors = Partial<Record<Field, string>>;
const FIELDS: Field[] = ['currentPassword', 'newPassword', 'confirmPassword'];

/** Product §5 checks, shown on the fields (wording from product §5/§8). */
function validate(values: Record<Field, string>): { fields: Errors; form: string | null } {
  if (!values.currentPassword || !values.newPassword) {
    return {
      fields: {
        ...(!values.currentPassword && { currentPassword: profileT('profile.password.current.required') }),
        ...(!values.newPassword && { newPassword: profileT('profile.password.new.required') }),
      },
      form: profileT('profile.password.missing'),
    };
  }
  if (values.newPassword !== values.confirmPassword) {
    return { fields: { confirmPassword: profileT('profile.password.mismatch') }, form: null };
  }
  return { fields: {}, form: null };
}

/**
 * Profile → Security → Change password, for subscribers and agents (their own route). Errors stay inline beside
 * the form; success is a toast.
 */
export function ChangePasswordCard({ kind = 'user' }: { kind?: 'user' | 'agent' }) {
  const t = useProfileT();
  const { values, setValues, field, formRef, formError, show } = useFormFields<Record<Field, string>>(
    { currentPassword: '', newPassword: '', confirmPassword: '' },
    FIELDS,
  );

  const change = useMutation({
    mutationFn: () => {
      const body = { currentPassword: values.currentPassword, newPassword: values.newPassword };
      return kind === 'agent'
        ? api(contracts.auth.agentChangePassword, { body })
        : api(contracts.auth.changePassword, { body });
    },
    onSuccess: (result) => {
      setValues({ currentPassword: '', newPassword: '', confirmPassword: '' });
      show({}, null);
      toast.success(profileT('profile.password.changed'), result.message);
    },
    onError: (error) => {
      const fields = fieldIssues(error, FIELDS);
      const message = isApiError(error) && error.message ? error.message : profileT('profile.tryAgain');
      show(fields, Object.keys(fields).length > 0 ? null : profileT('profile.password.failed', { message }));
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validate(values);
    show(found.fields, found.form);
    if (!found.form && Object.keys(found.fields).length === 0) change.mutate();
  };

  return (
    <Card>
      <CardTitle>{t('profile.password.title')}</CardTitle>
      <form ref={formRef} onSubmit={submit} className="mt-4 space-y-4" noValidate>
        <PasswordInput
          label={t('profile.password.current')}
          autoComplete="current-password"
          {...field('currentPassword')}
        />
        <PasswordInput
          label={t('profile.password.new')}
          autoComplete="new-password"
          hint={t('profile.password.new.hint', { min: 8 })}
          {...field('newPassword')}
        />
        <PasswordInput
          label={t('profile.password.confirm')}
          autoComplete="new-password"
          {...field('confirmPassword')}
        />
        {formError && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {formError}
          </p>
        )}
        <Button type="submit" loading={change.isPending}>
          {t('profile.password.submit')}
        </Button>
      </form>
    </Card>
  );
}
