import { cn } from '../../../components/ui/cn.ts';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import { STEPS, type Phase } from './steps.ts';

export function StepIndicator({ phase }: { phase: Phase }) {
  const current = STEPS.findIndex((s) => s.id === (phase === 'review' ? 'processing' : phase));
  return (
    <ol className="flex items-center gap-2" aria-label="Payment steps">
      {STEPS.map((step, index) => {
        const done = index < current || phase === 'success';
        const active = index === current;
        return (
          <li
            key={step.id}
            className="flex min-w-0 flex-1 items-center gap-2"
            aria-current={active ? 'step' : undefined}
            data-step={step.id}
          >
            <span
              className={cn(
                'grid size-8 shrink-0 place-items-center rounded-full text-sm font-bold',
                done
                  ? 'bg-green-700 text-white dark:bg-green-500 dark:text-stone-950'
                  : active
                    ? 'bg-brand-700 text-white dark:bg-brand-500 dark:text-stone-950'
                    : 'bg-stone-200 text-stone-700 dark:bg-stone-800 dark:text-stone-300',
              )}
            >
              {done ? <CheckIcon className="size-4" /> : index + 1}
              <span className="sr-only">
                {' '}
                {step.label}
                {done ? ' (done)' : active ? ' (current)' : ''}
              </span>
            </span>
            <span
              aria-hidden="true"
              className={cn(
                'hidden text-xs font-semibold sm:inline',
                active ? 'text-stone-900 dark:text-stone-50' : 'text-stone-600 dark:text-stone-400',
              )}
            >
              {step.label}
            </span>
            {index < STEPS.length - 1 && (
              <span
                aria-hidden="true"
                className={cn(
                  'h-0.5 min-w-2 flex-1 rounded',
                  index < current || phase === 'success' ? 'bg-green-500' : 'bg-stone-200 dark:bg-stone-800',
                )}
              />
            )}
          </li>
        );
      })}
    </ol>
  );
}
