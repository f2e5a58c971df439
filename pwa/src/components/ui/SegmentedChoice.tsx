import { Radio, RadioGroup } from '@headlessui/react';
import { cn } from './cn.ts';

/**
 * One of a few options drawn as segments on a tray (a radio group: arrow keys move the choice, the group is
 * named by `label`). For choosing which form to show, not for data a form submits.
 */
export function SegmentedChoice<T extends string>({
  label,
  value,
  options,
  onChange,
  className,
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  className?: string;
}) {
  return (
    <RadioGroup
      value={value}
      onChange={onChange}
      aria-label={label}
      className={cn('grid grid-cols-2 gap-1 rounded-xl bg-stone-100 p-1 dark:bg-stone-800', className)}
    >
      {options.map((option) => (
        <Radio
          key={option.value}
          value={option.value}
          className={({ checked }) =>
            cn(
              'cursor-pointer rounded-lg px-3 py-2 text-center text-sm font-semibold transition-colors',
              checked
                ? 'bg-white text-stone-950 shadow dark:bg-stone-950 dark:text-white'
                : 'text-stone-600 hover:text-stone-900 dark:text-stone-300 dark:hover:text-white',
            )
          }
        >
          {option.label}
        </Radio>
      ))}
    </RadioGroup>
  );
}
