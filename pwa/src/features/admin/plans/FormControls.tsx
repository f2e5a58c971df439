import { Description, Field, Label, Switch } from '@headlessui/react';
import { useId, type TextareaHTMLAttributes } from 'react';
import { cn } from '../../../components/ui/cn.ts';
import { FieldLabel, fieldClasses } from '../../../components/ui/Input.tsx';

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

/** An on/off switch with its label and what it means (Headless UI: Space toggles, role="switch"). */
export function LabelledSwitch({
  label,
  description,
  checked,
  onChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  onChange: (value: boolean) => void;
}) {
  return (
    <Field className="flex items-start justify-between gap-4 rounded-xl border border-stone-200 p-3 dark:border-stone-800">
      <span>
        <Label className="font-semibold">{label}</Label>
        <Description className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">{description}</Description>
      </span>
      <Switch
        checked={checked}
        onChange={onChange}
        className="group relative inline-flex h-7 w-12 shrink-0 items-center rounded-full bg-stone-400 transition-colors data-checked:bg-brand-700 dark:bg-stone-600 dark:data-checked:bg-brand-500"
      >
        <span className="inline-block size-5 translate-x-1 rounded-full bg-white shadow transition-transform group-data-checked:translate-x-6" />
      </Switch>
    </Field>
  );
}
