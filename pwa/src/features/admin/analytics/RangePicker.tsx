import { cn } from '../../../components/ui/cn.ts';
import { RANGES, type Range } from './range.ts';

/** 7 / 30 / 90 days as a group of toggle buttons: the pressed one is the range on screen. */
export function RangePicker({
  value,
  onChange,
  busy,
}: {
  value: Range;
  onChange: (range: Range) => void;
  busy?: boolean;
}) {
  return (
    <div
      role="group"
      aria-label="Range"
      aria-busy={busy || undefined}
      className="inline-flex rounded-xl border border-stone-300 bg-white p-1 dark:border-stone-700 dark:bg-stone-900"
    >
      {RANGES.map((range) => {
        const pressed = range === value;
        return (
          <button
            key={range}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(range)}
            className={cn(
              'min-h-9 rounded-lg px-3 text-sm font-semibold transition-colors',
              pressed
                ? 'bg-brand-700 text-white dark:bg-brand-400 dark:text-stone-950'
                : 'text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800',
            )}
          >
            {range} days
          </button>
        );
      })}
    </div>
  );
}
