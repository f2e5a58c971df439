import { formatKampalaLocal, formatUgx, type AdminPlan } from '@filamu/shared';
import { useId } from 'react';
import { Badge } from '../../../components/ui/Badge.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { saleState, unsellable } from './plan-movies.ts';

function PlanItem({
  plan,
  editing,
  onEdit,
  onDelete,
}: {
  plan: AdminPlan;
  editing: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const subscribers = plan.subscriber_count;
  const movies = plan.movie_count;
  const inactive = movies - plan.active_movie_count;
  const sale = saleState(plan, new Date());
  return (
    <li
      className={`p-4 ${editing ? 'bg-brand-50 dark:bg-brand-950/40' : ''}`}
      aria-current={editing ? 'true' : undefined}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-semibold text-stone-900 dark:text-stone-50">{plan.plan_name}</h3>
          <p className="mt-0.5 text-sm text-stone-700 dark:text-stone-300">
            <span className="font-semibold tabular-nums">{formatUgx(plan.price_ugx)}</span>
            <span aria-hidden="true"> · </span>
            <span>Expires {formatKampalaLocal(plan.global_expiry_date)} (Kampala)</span>
            <span aria-hidden="true"> · </span>
            <span>
              {subscribers} current subscriber{subscribers === 1 ? '' : 's'}
            </span>
            <span aria-hidden="true"> · </span>
            <span>
              {movies.toLocaleString('en-US')} movie{movies === 1 ? '' : 's'}
              {inactive > 0 && ` (${inactive.toLocaleString('en-US')} inactive)`}
            </span>
          </p>
          <div className="mt-2 flex flex-wrap gap-1.5">
            <Badge tone={plan.is_active ? 'success' : 'danger'}>{plan.is_active ? 'Active' : 'Inactive'}</Badge>
            <Badge tone={plan.is_visible ? 'info' : 'neutral'}>{plan.is_visible ? 'Visible' : 'Hidden'}</Badge>
            {sale.kind === 'sale-closed' && <Badge tone="danger">{sale.text}</Badge>}
            {sale.kind === 'ended' && <Badge tone="neutral">Ended</Badge>}
            <Badge tone="brand">Order: {plan.display_order}</Badge>
            {unsellable(plan) && (
              <Badge tone="danger">{movies === 0 ? 'No movies' : 'No active movies'} — cannot be sold</Badge>
            )}
          </div>
        </div>
        <div className="flex shrink-0 gap-2">
          <Button size="sm" variant="outline" onClick={onEdit} aria-label={`Edit ${plan.plan_name}`}>
            Edit
          </Button>
          <Button size="sm" variant="danger" onClick={onDelete} aria-label={`Delete ${plan.plan_name}`}>
            Delete
          </Button>
        </div>
      </div>
      {plan.description && <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">{plan.description}</p>}
      <ul aria-label={`${plan.plan_name} features`} className="mt-2 flex flex-wrap gap-1.5">
        {plan.features.map((feature, i) => (
          <li
            key={`${i}-${feature}`}
            className="rounded-lg bg-stone-100 px-2 py-0.5 text-xs text-stone-800 dark:bg-stone-800 dark:text-stone-200"
          >
            {feature}
          </li>
        ))}
      </ul>
    </li>
  );
}

/**
 * The plans by display order (ties by name, as the API sends them) in a scrolling region under a heading with the count
 * (decision 0057: taller than the product's 12rem, which fits about one plan).
 */
export function PlanList({
  plans,
  loading,
  error,
  onRetry,
  editingId,
  onEdit,
  onDelete,
}: {
  plans: AdminPlan[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  editingId: string | null;
  onEdit: (plan: AdminPlan) => void;
  onDelete: (plan: AdminPlan) => void;
}) {
  const headingId = useId();
  const sorted = plans ? [...plans].sort((a, b) => a.display_order - b.display_order) : [];
  return (
    <section className="mt-6 overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm dark:border-stone-800 dark:bg-stone-900">
      <div className="flex items-center justify-between gap-3 border-b border-stone-200 px-5 py-4 dark:border-stone-800">
        <h2 id={headingId} className="text-lg font-semibold text-stone-900 dark:text-stone-50">
          Subscription plans{plans ? ` (${plans.length})` : ''}
        </h2>
        <p className="text-sm text-stone-600 dark:text-stone-400">Sorted by display order, lowest first</p>
      </div>
      {loading && !plans ? (
        <div className="flex justify-center p-10">
          <Spinner className="size-6 text-brand-700 dark:text-brand-400" label="Loading plans" />
        </div>
      ) : error && !plans ? (
        <LoadFailure
          look="line"
          className="p-5"
          what="subscription plans"
          error={error}
          fallback="Please check your connection."
          onRetry={onRetry}
        />
      ) : sorted.length === 0 ? (
        <p className="p-10 text-center text-stone-600 dark:text-stone-400">
          No subscription plans found. Add one above!
        </p>
      ) : (
        // Focusable so keyboard users can scroll it (axe: scrollable-region-focusable).
        <div role="region" aria-labelledby={headingId} tabIndex={0} className="max-h-[32rem] overflow-y-auto">
          <ul className="divide-y divide-stone-200 dark:divide-stone-800">
            {sorted.map((plan) => (
              <PlanItem
                key={plan.id}
                plan={plan}
                editing={plan.id === editingId}
                onEdit={() => onEdit(plan)}
                onDelete={() => onDelete(plan)}
              />
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
