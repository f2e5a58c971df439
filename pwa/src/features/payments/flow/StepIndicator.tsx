import { cn } from '../../../components/ui/cn.ts';
import { CheckIcon } from '../../../components/ui/icons.tsx';
import { usePaymentsT } from '../messages.ts';
import { STEPS, type Phase } from './steps.ts';

/** The steps with their names on screen, under each number, so they fit a 360 px phone (decision 0182). */
export function StepIndicator({ phase }: { phase: Phase | 'plan' }) {
  const t = usePaymentsT();
  const current = STEPS.findIndex((s) => s.id === (phase === 'review' ? 'processing' : phase));
  return (
    <ol className="grid grid-cols-5 gap-1" aria-label={t('payments.steps.label')}>
      {STEPS.map((step, index) => {
        const done = index < current || phase === 'success';
        const active = index === current;
        return (
          <li
            key={step.id}
            className="flex min-w-0 flex-col items-center gap-1 text-center"
            aria-current={active ? 'step' : undefined}
            data-step={step.id}
          >
            <span
              aria-hidden="true"
              className={cn(
                'grid size-7 shrink-0 place-items-center rounded-full text-xs font-bold',
                done
                  ? 'bg-green-700 text-white dark:bg-green-500 dark:text-stone-950'
                  : active
                    ? 'bg-brand-700 text-white dark:bg-brand-500 dark:text-stone-950'
                    : 'bg-stone-200 text-stone-700 dark:bg-stone-800 dark:text-stone-300',
              )}
            >
              {done ? <CheckIcon className="size-4" /> : index + 1}
            </span>
            <span
              className={cn(
                'max-w-full text-xs font-semibold break-words',
                active ? 'text-stone-900 dark:text-stone-50' : 'text-stone-600 dark:text-stone-400',
              )}
            >
              {t(step.label)}
              <span className="sr-only">
                {done ? ` ${t('payments.steps.doneMark')}` : active ? ` ${t('payments.steps.currentMark')}` : ''}
              </span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
