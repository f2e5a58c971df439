import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { cn } from '../../../components/ui/cn.ts';
import { fieldClasses } from '../../../components/ui/Input.tsx';

/** A labelled native `<select>` styled like `Input` (native, so keyboards and screen readers get the OS list). */
export function SelectField({
  label,
  error,
  hint,
  children,
  className,
  id: givenId,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string | null; hint?: ReactNode }) {
  const generated = useId();
  const id = givenId ?? generated;
  const describedBy = [hint && !error ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-200">
        {label}
      </label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={cn(
          fieldClasses,
          error ? 'border-red-500 dark:border-red-400' : 'border-stone-300 dark:border-stone-700',
        )}
        {...rest}
      >
        {children}
      </select>
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1.5 text-sm text-stone-600 dark:text-stone-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1.5 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
