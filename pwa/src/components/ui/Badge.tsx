import type { HTMLAttributes } from 'react';
import { cn } from './cn.ts';

export type BadgeTone = 'neutral' | 'brand' | 'success' | 'danger' | 'info';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-stone-100 text-stone-800 ring-stone-300 dark:bg-stone-800 dark:text-stone-200 dark:ring-stone-600',
  brand: 'bg-brand-100 text-brand-900 ring-brand-300 dark:bg-brand-950 dark:text-brand-200 dark:ring-brand-800',
  success: 'bg-green-100 text-green-900 ring-green-300 dark:bg-green-950 dark:text-green-200 dark:ring-green-800',
  danger: 'bg-red-100 text-red-900 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800',
  info: 'bg-sky-100 text-sky-900 ring-sky-300 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-800',
};

export function Badge({
  tone = 'neutral',
  className,
  ...rest
}: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset',
        tones[tone],
        className,
      )}
      {...rest}
    />
  );
}
