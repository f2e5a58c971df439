import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useCommonT } from '../../lib/common-messages.ts';
import { cn } from './cn.ts';
import { EyeIcon, EyeOffIcon } from './icons.tsx';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** Content drawn inside the right edge of the field (e.g. the show/hide button). */
  trailing?: ReactNode;
}

export const fieldClasses =
  'block w-full rounded-xl border bg-white px-3.5 py-2.5 text-base text-stone-900 placeholder:text-stone-400 shadow-sm ' +
  'focus-visible:border-brand-700 dark:focus-visible:border-brand-400 ' +
  'disabled:cursor-not-allowed disabled:bg-stone-100 disabled:text-stone-500 ' +
  'dark:bg-stone-900 dark:text-stone-100 dark:placeholder:text-stone-500 dark:disabled:bg-stone-800 dark:disabled:text-stone-400';

/** A field's label, with a red asterisk (hidden from screen readers, which hear "required") when it must be filled. */
export function FieldLabel({ htmlFor, label, required }: { htmlFor: string; label: string; required?: boolean }) {
  return (
    // The asterisk sits outside the <label> so the field's name stays exactly `label`.
    <div className="mb-1.5 flex gap-1 text-sm font-medium">
      <label htmlFor={htmlFor} className="text-stone-800 dark:text-stone-200">
        {label}
      </label>
      {required && (
        <span className="text-red-600 dark:text-red-400" aria-hidden="true">
          *
        </span>
      )}
    </div>
  );
}

export function Input({ label, hint, error, trailing, id, className, ...rest }: InputProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div className={className}>
      <FieldLabel htmlFor={inputId} label={label} required={rest.required} />
      <div className="relative">
        <input
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
          className={cn(
            fieldClasses,
            error ? 'border-red-500 dark:border-red-400' : 'border-stone-300 dark:border-stone-700',
            trailing ? 'pr-12' : undefined,
          )}
          {...rest}
        />
        {trailing && <div className="absolute inset-y-0 right-0 flex items-center pr-1.5">{trailing}</div>}
      </div>
      {hint && !error && (
        <p id={hintId} className="mt-1.5 text-sm text-stone-600 dark:text-stone-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** Password field with a show/hide toggle. */
export function PasswordInput(props: Omit<InputProps, 'type' | 'trailing'>) {
  const t = useCommonT();
  const [visible, setVisible] = useState(false);
  const label = props.label.toLowerCase();
  return (
    <Input
      {...props}
      type={visible ? 'text' : 'password'}
      trailing={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? t('common.password.hide', { label }) : t('common.password.show', { label })}
          aria-pressed={visible}
          className="rounded-lg p-2 text-stone-500 hover:text-stone-800 dark:text-stone-400 dark:hover:text-stone-100"
        >
          {visible ? <EyeOffIcon className="size-5" /> : <EyeIcon className="size-5" />}
        </button>
      }
    />
  );
}
