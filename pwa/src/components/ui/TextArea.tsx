import { useId, type TextareaHTMLAttributes } from 'react';
import { cn } from './cn.ts';
import { FieldLabel, fieldClasses } from './Input.tsx';

/** A labelled multi-line field drawn like `Input`: hint or error under it, linked for screen readers. */
export function TextArea({
  label,
  hint,
  error,
  className,
  ...rest
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; hint?: string; error?: string | null }) {
  const id = useId();
  const noteId = `${id}-note`;
  return (
    <div className={className}>
      <FieldLabel htmlFor={id} label={label} required={rest.required} />
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={hint || error ? noteId : undefined}
        className={cn(
          fieldClasses,
          'min-h-28',
          error ? 'border-red-500 dark:border-red-400' : 'border-stone-300 dark:border-stone-700',
        )}
        {...rest}
      />
      {error ? (
        <p id={noteId} className="mt-1.5 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : (
        hint && (
          <p id={noteId} className="mt-1.5 text-sm text-stone-600 dark:text-stone-400">
            {hint}
          </p>
        )
      )}
    </div>
  );
}
