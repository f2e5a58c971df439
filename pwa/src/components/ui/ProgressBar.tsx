import { cn } from './cn.ts';

/** A determinate progress bar that screen readers announce (role, min/max/now and a spoken value). */
export function ProgressBar({
  percent,
  label,
  labelledBy,
  valueText,
  className,
  tone = 'brand',
}: {
  percent: number;
  /** Accessible name, e.g. 'Download progress of Kigambo'… */
  label?: string;
  /** …or the id of the element that names it. */
  labelledBy?: string;
  valueText?: string;
  className?: string;
  /** `info`: sky, inside a sky notice (the admin's encryption progress). */
  tone?: 'brand' | 'success' | 'info';
}) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-labelledby={labelledBy}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-valuetext={valueText ?? `${value}%`}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800', className)}
    >
      <div
        className={cn(
          'h-full rounded-full transition-[width] duration-500',
          tone === 'success' && 'bg-green-600 dark:bg-green-500',
          tone === 'info' && 'bg-sky-600 dark:bg-sky-400',
          tone === 'brand' && 'bg-brand-600 dark:bg-brand-400',
        )}
        style={{ width: `${value}%` }}
      />
    </div>
  );
}
