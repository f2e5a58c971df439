import {
  contracts,
  DEFAULT_NIGHT_PRICE_PER_GB_UGX,
  DEFAULT_NIGHT_WINDOWS,
  type NightBundleSetting,
} from '@filamu/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { api, errorMessage } from '../../../lib/api.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { toast } from '../../../lib/toast.ts';
import {
  draftOf,
  MAX_NIGHT_WINDOWS,
  type NightBundleDraft,
  type NightBundleErrors,
  readNightBundle,
  takesEffectText,
} from './night-bundle-form.ts';

const NIGHT_BUNDLE_KEY = ['admin', 'night-bundle'] as const;
const DEFAULTS: NightBundleSetting = {
  nightPricePerGbUgx: DEFAULT_NIGHT_PRICE_PER_GB_UGX,
  windows: DEFAULT_NIGHT_WINDOWS,
};

/**
 * "Night bundle hours" (issue 21/22): the price of 1 GB at night and up to four windows, Kampala time, that phones
 * download tonight's films in. A window under way keeps its hours: a change applies from the next window.
 */
export function NightBundleCard() {
  const current = useQuery({
    queryKey: NIGHT_BUNDLE_KEY,
    queryFn: ({ signal }) => api(contracts.nightBundle.adminNightBundle, {}, { signal }),
  });
  const [draft, setDraft] = useState<NightBundleDraft | null>(null);
  const [errors, setErrors] = useState<NightBundleErrors>({});
  const save = useMutation({
    mutationFn: (body: NightBundleSetting) => api(contracts.nightBundle.adminSetNightBundle, { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(NIGHT_BUNDLE_KEY, saved);
      setDraft(null);
      toast.success(
        'Night bundle hours saved',
        saved.takesEffectAt
          ? `The window under way keeps its hours; the new ones apply from ${takesEffectText(saved.takesEffectAt)}.`
          : 'Phones follow the new hours from the next window.',
      );
    },
    onError: (e) => setErrors({ form: errorMessage(e, 'Could not save the night bundle hours. Please try again.') }),
  });

  const loaded = current.data ?? (current.isError ? { ...DEFAULTS, takesEffectAt: null } : null);
  const shown: NightBundleDraft = draft ?? (loaded ? draftOf(loaded) : { price: '', windows: [] });
  const edit = (change: (d: NightBundleDraft) => NightBundleDraft) => setDraft(change(shown));
  const setTime = (index: number, end: 'start' | 'end', value: string) =>
    edit((d) => ({ ...d, windows: d.windows.map((w, i) => (i === index ? { ...w, [end]: value } : w)) }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = readNightBundle(shown);
    if (read.errors) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    save.mutate(read.setting);
  };

  const busy = current.isPending;
  return (
    <Card>
      <CardTitle>Night bundle hours</CardTitle>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Films queued for tonight download in these hours (Kampala time), and people see what they save at this price. A
        window under way keeps its hours: a change applies from the next window.
        {current.isError && ' The saved hours could not be loaded; the defaults are shown.'}
      </p>
      {current.data?.takesEffectAt && !draft && (
        <p className="mt-2 text-sm font-medium text-amber-800 dark:text-amber-300">
          These hours apply from {takesEffectText(current.data.takesEffectAt)}, when tonight’s window closes.
        </p>
      )}
      <form className="mt-3 space-y-3" onSubmit={submit} noValidate>
        <Input
          label="Price of 1 GB of data at night (UGX)"
          inputMode="numeric"
          autoComplete="off"
          value={shown.price}
          disabled={busy}
          onChange={(e) => edit((d) => ({ ...d, price: e.target.value }))}
          error={errors.price ?? null}
          className="w-full sm:w-64"
        />
        {shown.windows.map((window, index) => (
          <div key={index} className="min-w-0">
            <div className="flex flex-wrap items-end gap-3">
              <Input
                label={`Window ${index + 1} starts`}
                placeholder="HH:MM"
                inputMode="numeric"
                autoComplete="off"
                value={window.start}
                disabled={busy}
                onChange={(e) => setTime(index, 'start', e.target.value)}
                error={errors[`windows.${index}.start`] ?? null}
                className="w-36"
              />
              <Input
                label={`Window ${index + 1} ends`}
                placeholder="HH:MM"
                inputMode="numeric"
                autoComplete="off"
                value={window.end}
                disabled={busy}
                onChange={(e) => setTime(index, 'end', e.target.value)}
                error={errors[`windows.${index}.end`] ?? null}
                className="w-36"
              />
              {shown.windows.length > 1 && (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove window ${index + 1}`}
                  disabled={busy}
                  onClick={() => edit((d) => ({ ...d, windows: d.windows.filter((_, i) => i !== index) }))}
                >
                  Remove
                </Button>
              )}
            </div>
            {errors[`windows.${index}`] && (
              <p role="alert" className="mt-1.5 text-sm font-medium text-red-700 dark:text-red-400">
                {errors[`windows.${index}`]}
              </p>
            )}
          </div>
        ))}
        {errors.windows && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {errors.windows}
          </p>
        )}
        <div className="flex flex-wrap gap-3">
          {shown.windows.length < MAX_NIGHT_WINDOWS && (
            <Button
              variant="outline"
              disabled={busy}
              onClick={() => edit((d) => ({ ...d, windows: [...d.windows, { start: '', end: '' }] }))}
            >
              Add a window
            </Button>
          )}
          <Button type="submit" loading={save.isPending} disabled={busy}>
            Save night hours
          </Button>
        </div>
        {errors.form && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {errors.form}
          </p>
        )}
      </form>
    </Card>
  );
}
