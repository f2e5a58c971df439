import { contracts, SMS_BUDGET_PURPOSES, SmsBudgetSetting } from '@filamu/shared';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { api, errorMessage } from '../../../lib/api.ts';
import { typedNumber } from '../../../lib/form.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { toast } from '../../../lib/toast.ts';
import { SMS_BUDGET_SETTING_KEY, SMS_BUDGET_STATUS_KEY, useSmsBudgetSetting } from './sms-budget-queries.ts';

/** Every field by its path in the setting ("codes.perHour", "alarmPercent"). */
const FIELDS: { path: string; label: string; hint?: string }[] = [
  ...SMS_BUDGET_PURPOSES.flatMap((purpose) => {
    const name = { codes: 'Codes', receipts: 'Receipts', reminders: 'Reminders', credentials: 'Agent passwords' }[
      purpose
    ];
    return [
      { path: `${purpose}.perHour`, label: `${name} per hour` },
      { path: `${purpose}.perDay`, label: `${name} per day`, hint: 'The day starts at midnight in Kampala.' },
    ];
  }),
  {
    path: 'codesPerNetworkPerHour',
    label: 'Codes per network per hour',
    hint: 'From one IPv4 /24 or IPv6 /64 (a carrier can put many people behind one).',
  },
  { path: 'alarmPercent', label: 'Alarm at this % of a ceiling' },
  { path: 'balanceAlarmUgx', label: 'Alarm below this balance (UGX)', hint: '0 turns the balance alarm off.' },
];

type Setting = Record<string, unknown>;
const read = (setting: Setting, path: string) =>
  path.split('.').reduce<unknown>((v, key) => (v as Setting | undefined)?.[key], setting);

/** The budget's ceilings and alarm thresholds, behind a disclosure so the Overview stays short. */
export function SmsBudgetForm() {
  const current = useSmsBudgetSetting();
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: SmsBudgetSetting) => api(contracts.settings.adminSetSmsBudget, { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(SMS_BUDGET_SETTING_KEY, saved);
      void queryClient.invalidateQueries({ queryKey: SMS_BUDGET_STATUS_KEY });
      setDrafts({});
      toast.success('SMS budget saved', 'The new ceilings apply from now on, on every server.');
    },
    onError: (e) => setErrors({ form: errorMessage(e, 'Could not save the budget. Please try again.') }),
  });

  const value = (path: string) => {
    const saved = current.data ? read(current.data as Setting, path) : undefined;
    return drafts[path] ?? (saved === undefined ? '' : String(saved));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: Setting = {};
    for (const { path } of FIELDS) {
      const [head, tail] = path.split('.') as [string, string | undefined];
      const number = typedNumber(value(path));
      if (tail) body[head] = { ...(body[head] as Setting | undefined), [tail]: number };
      else body[head] = number;
    }
    const parsed = SmsBudgetSetting.safeParse(body);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[issue.path.join('.')] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  return (
    <details className="mt-4">
      <summary className="cursor-pointer text-sm font-medium text-brand-700 dark:text-brand-400">
        Change the ceilings and the alarm
      </summary>
      <form className="mt-3 grid gap-3 sm:grid-cols-2" onSubmit={submit} noValidate>
        {FIELDS.map(({ path, label, hint }) => (
          <Input
            key={path}
            label={label}
            hint={hint}
            inputMode="numeric"
            autoComplete="off"
            value={value(path)}
            disabled={!current.data}
            onChange={(e) => setDrafts((d) => ({ ...d, [path]: e.target.value }))}
            error={errors[path] ?? null}
          />
        ))}
        <div className="sm:col-span-2">
          <Button type="submit" loading={save.isPending} disabled={!current.data}>
            Save budget
          </Button>
        </div>
      </form>
      {(errors.form || current.isError) && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
          {errors.form ?? errorMessage(current.error, 'The saved budget could not be loaded.')}
        </p>
      )}
    </details>
  );
}
