import { contracts, Email, FullName, type UpdateProfileRequest, type UserProfile } from '@filamu/shared';
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
import { profileT, useProfileT } from './messages.ts';

type Field = 'fullName' | 'email' | 'currentPassword';
type Values = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;
const FIELDS: Field[] = ['fullName', 'email', 'currentPassword'];

const SCHEMAS = { fullName: FullName, email: Email } as const;

const emailChanged = (values: Values, user: UserProfile) =>
  values.email.trim().toLowerCase() !== user.email.toLowerCase();

function validate(values: Values, user: UserProfile): Errors {
  const errors: Errors = {};
  for (const field of ['fullName', 'email'] as const) {
    const result = SCHEMAS[field].safeParse(values[field]);
    if (!result.success) errors[field] = result.error.issues[0]?.message;
  }
  if (emailChanged(values, user) && !values.currentPassword) {
    errors.currentPassword = profileT('profile.info.currentPassword.required');
  }
  return errors;
}

/** Only the fields that changed are sent; a new email goes with the current password (decision 0106). */
function changesFrom(values: Values, user: UserProfile): UpdateProfileRequest {
  const changes: UpdateProfileRequest = {};
  if (values.fullName.trim() !== user.fullName) changes.fullName = values.fullName.trim();
  if (emailChanged(values, user)) {
    changes.email = values.email.trim();
    changes.currentPassword = values.currentPassword;
  }
  return changes;
}

/** Server refusals onto the fields they concern; anything else is a message for the whole form. */
function serverErrors(error: unknown): { fields: Errors; form: string | null } {
  if (!isApiError(error)) return { fields: {}, form: profileT('profile.tryAgain') };
  const fields = fieldIssues(error, FIELDS);
  // Only the email is unique, so a conflict is always about it ("An account with this email already exists.").
  if (error.code === 'conflict' && !fields.email) fields.email = error.message;
  const onFields = Object.keys(fields).length > 0;
  return { fields, form: onFields ? null : error.message || profileT('profile.tryAgain') };
}

function focusControl(form: HTMLFormElement | null, name: string): void {
  (form?.elements.namedItem(name) as HTMLElement | null)?.focus();
}

/**
 * Profile → Profile (product §2, §4): read-only until Edit Profile, then Save Changes or Cancel. Errors appear
 * where the person is looking — on the field, or beside the buttons — not in a toast as well.
 */
export function ProfileTab({ user }: { user: UserProfile }) {
  const t = useProfileT();
  const [editing, setEditing] = useState(false);
  const { values, setValues, field, formRef, formError, show } = useFormFields<Values>(
    { fullName: user.fullName, email: user.email, currentPassword: '' },
    FIELDS,
  );
  // Where focus goes once the switch between reading and editing has rendered (the field is enabled, the button is back).
  const focusNext = useRef<'fullName' | 'edit' | null>(null);

  useEffect(() => {
    if (focusNext.current) focusControl(formRef.current, focusNext.current);
    focusNext.current = null;
  }, [editing, formRef]);

  const stopEditing = (next: UserProfile) => {
    setValues({ fullName: next.fullName, email: next.email, currentPassword: '' });
    show({}, null);
    focusNext.current = 'edit';
    setEditing(false);
  };

  const update = useMutation({
    mutationFn: (body: UpdateProfileRequest) => api(contracts.auth.updateProfile, { body }),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.userProfile, updated);
      useSessionStore.getState().setUser(updated);
      stopEditing(updated);
      toast.success(profileT('profile.info.updated'));
    },
    onError: (error) => {
      const found = serverErrors(error);
      show(found.fields, found.form);
    },
  });

  const startEditing = () => {
    setValues({ fullName: user.fullName, email: user.email, currentPassword: '' });
    focusNext.current = 'fullName';
    setEditing(true);
  };

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!editing) return;
    const found = validate(values, user);
    if (show(found, null)) return;
    const changes = changesFrom(values, user);
    if (Object.keys(changes).length === 0) {
      toast.info(profileT('profile.info.noChanges'));
      stopEditing(user);
      return;
    }
    update.mutate(changes);
  };

  return (
    <Card>
      <CardTitle>{t('profile.info.title')}</CardTitle>
      <form
        ref={formRef}
        onSubmit={save}
        className="mt-4 space-y-4"
        noValidate
        aria-busy={update.isPending || undefined}
      >
        <Input
          label={t('profile.info.fullName')}
          autoComplete="name"
          {...field('fullName')}
          disabled={!editing}
          required
        />
        <Input
          label={t('profile.info.email')}
          type="email"
          inputMode="email"
          autoComplete="email"
          {...field('email')}
          disabled={!editing}
          required
        />
        {editing && emailChanged(values, user) && (
          <PasswordInput
            label={t('profile.password.current')}
            autoComplete="current-password"
            hint={t('profile.info.currentPassword.hint')}
            {...field('currentPassword')}
            required
          />
        )}
        {formError && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {t('profile.info.failed', { message: formError })}
          </p>
        )}
        <div className="flex flex-wrap gap-3">
          {/*
            Distinct keys: React replaces the button rather than turning "Edit Profile" (type=button) into
            "Save Changes" (type=submit) in place, which let the same click submit the form at once.
          */}
          {editing ? (
            <>
              <Button key="save" type="submit" loading={update.isPending}>
                {t('profile.info.save')}
              </Button>
              <Button key="cancel" variant="outline" onClick={() => stopEditing(user)} disabled={update.isPending}>
                {t('profile.cancel')}
              </Button>
            </>
          ) : (
            <Button key="edit" name="edit" onClick={startEditing}>
              {t('profile.info.edit')}
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
