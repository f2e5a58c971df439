import type { PaymentStatus, PaymentStatusCounts } from '@filamu/shared';
import { cn } from '../../../components/ui/cn.ts';
import { STATUS_FILTERS } from './presentation.ts';

/** The status chips: toggle buttons (aria-pressed) with the count each would show. */
export function StatusFilter({
  value,
  counts,
  onChange,
}: {
  value: PaymentStatus | null;
  counts: PaymentStatusCounts | undefined;
  onChange: (status: PaymentStatus | null) => void;
}) {
  return (
    <div role="group" aria-label="Filter by status" className="flex flex-wrap gap-2">
      {STATUS_FILTERS.map(({ value: status, label }) => {
        const selected = status === value;
        const count = counts?.[status ?? 'all'];
        return (
          <button
            key={label}
            type="button"
            aria-pressed={selected}
            onClick={() => onChange(status)}
            className={cn(
              'inline-flex min-h-9 items-center gap-2 rounded-full border px-3.5 text-sm font-semibold transition-colors',
              selected
                ? 'border-brand-700 bg-brand-700 text-white dark:border-brand-400 dark:bg-brand-400 dark:text-stone-950'
                : 'border-stone-300 bg-white text-stone-800 hover:bg-stone-100 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-200 dark:hover:bg-stone-800',
              status === 'review' && !selected && (count ?? 0) > 0 && 'border-amber-500 dark:border-amber-600',
            )}
          >
            {label}
            {count !== undefined && <span className="tabular-nums">({count})</span>}
          </button>
        );
      })}
    </div>
  );
}
