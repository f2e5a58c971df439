import { contracts, PlanSaleSetting } from '@filamu/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { api, errorMessage } from '../../../lib/api.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { toast } from '../../../lib/toast.ts';

const PLAN_SALE_KEY = ['admin', 'plan-sale'] as const;

type Drafts = { warning: string | null; cutoff: string | null };

const hoursText = (n: number) => `${n} ${n === 1 ? 'hour' : 'hours'}`;

/**
 * Admin → Plans: what happens as a plan nears its one end (decision 0176): from when the cards warn buyers that
 * little is left, and in how many last hours the plan is no longer sold (0 sells it to the end).
 */
export function PlanSaleCard() {
  const current = useQuery({ queryKey: PLAN_SALE_KEY, queryFn: () => api(contracts.settings.adminPlanSale) });
  const [drafts, setDrafts] = useState<Drafts>({ warning: null, cutoff: null });
  const [errors, setErrors] = useState<{ warning?: string; cutoff?: string; form?: string }>({});
  const save = useMutation({
    mutationFn: (body: PlanSaleSetting) => api(contracts.settings.adminSetPlanSale, { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(PLAN_SALE_KEY, saved);
      setDrafts({ warning: null, cutoff: null });
      toast.success(
        'Saved',
        saved.planSaleCutoffHours === 0
          ? `Buyers are warned in a plan's last ${hoursText(saved.planWarningHours)}; plans are sold to the end.`
          : `Buyers are warned in a plan's last ${hoursText(saved.planWarningHours)}; it is not sold in its last ${hoursText(saved.planSaleCutoffHours)}.`,
      );
    },
    onError: (e) => setErrors({ form: errorMessage(e, 'Could not save. Please try again.') }),
  });

  const warning = drafts.warning ?? (current.data ? String(current.data.planWarningHours) : '');
  const cutoff = drafts.cutoff ?? (current.data ? String(current.data.planSaleCutoffHours) : '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const number = (text: string) => (text.trim() === '' ? undefined : Number(text.trim()));
    const parsed = PlanSaleSetting.safeParse({
      planWarningHours: number(warning),
      planSaleCutoffHours: number(cutoff),
    });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'planSaleCutoffHours') next.cutoff ??= issue.message;
        else next.warning ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };

  return (
    <Card className="mt-6">
      <CardTitle>Plans near their end</CardTitle>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Everyone on a plan loses access at its one end, so a plan bought late gives fewer days for the same price.
        Buyers see the exact end and the days and hours left; here you choose when they are warned and when the plan
        stops being sold.
      </p>
      {current.isError && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
          {errorMessage(current.error, 'The saved setting could not be loaded.')}{' '}
          <button type="button" className="underline" onClick={() => void current.refetch()}>
            Retry
          </button>
        </p>
      )}
      <form className="mt-3 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end" onSubmit={submit} noValidate>
        <Input
          label="Warn buyers this long before the end"
          hint="In whole hours."
          inputMode="numeric"
          autoComplete="off"
          value={warning}
          disabled={!current.data}
          onChange={(e) => setDrafts((d) => ({ ...d, warning: e.target.value }))}
          error={errors.warning ?? null}
        />
        <Input
          label="Stop selling this long before the end"
          hint="In whole hours; 0 sells to the end."
          inputMode="numeric"
          autoComplete="off"
          value={cutoff}
          disabled={!current.data}
          onChange={(e) => setDrafts((d) => ({ ...d, cutoff: e.target.value }))}
          error={errors.cutoff ?? null}
        />
        <Button type="submit" loading={save.isPending} disabled={!current.data}>
          Save
        </Button>
      </form>
      {errors.form && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
          {errors.form}
        </p>
      )}
    </Card>
  );
}
