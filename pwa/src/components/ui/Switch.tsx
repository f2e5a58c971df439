import { Description, Field, Label, Switch as HeadlessSwitch } from '@headlessui/react';
import { cn } from './cn.ts';

/**
 * An on/off setting with its label and what it means: Headless UI's switch (role="switch", Space toggles),
 * drawn one way everywhere. `boxed` draws it as a card of its own in forms; in a list of settings it is a row.
 */
export function LabelledSwitch({
  label,
  description,
  checked,
  onChange,
  boxed = false,
}: {
  label: string;
  description: string;
  checked: boolean;
  onChange: (value: boolean) => void;
  boxed?: boolean;
}) {
  return (
    <Field
      className={cn(
        'flex items-start justify-between gap-4',
        boxed ? 'rounded-xl border border-stone-200 p-3 dark:border-stone-800' : 'py-3',
      )}
    >
      <span>
        <Label className="font-semibold">{label}</Label>
        <Description className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">{description}</Description>
      </span>
      <HeadlessSwitch
        checked={checked}
        onChange={onChange}
        className="group relative inline-flex h-7 w-12 shrink-0 items-center rounded-full bg-stone-400 transition-colors data-checked:bg-brand-700 dark:bg-stone-600 dark:data-checked:bg-brand-500"
      >
        <span className="inline-block size-5 translate-x-1 rounded-full bg-white shadow transition-transform group-data-checked:translate-x-6" />
      </HeadlessSwitch>
    </Field>
  );
}
