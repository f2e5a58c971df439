import { formatUgx, instructionSteps } from '@filamu/shared';
import { cn } from '../../../components/ui/cn.ts';

/** The gateway writes `UGX 10000`; everywhere else amounts read `UGX 10,000` (decision 0182). */
function withOurAmounts(step: string): string {
  return step.replace(/UGX ?(\d[\d,]*)/g, (_match, digits: string) => formatUgx(digits.replace(/,/g, '')));
}

/** The gateway's instructions as the numbered steps they are (docs/decisions/0025); nothing is cut short. */
export function InstructionList({
  text,
  className,
  label,
  labelledBy,
}: {
  text: string;
  className?: string;
  label?: string;
  labelledBy?: string;
}) {
  const steps = instructionSteps(text).map(withOurAmounts);
  if (steps.length === 0) return null;
  return (
    <ol
      aria-label={label}
      aria-labelledby={labelledBy}
      className={cn('list-decimal space-y-1 pl-5 text-sm break-words text-stone-700 dark:text-stone-300', className)}
    >
      {steps.map((step, index) => (
        <li key={index}>{step}</li>
      ))}
    </ol>
  );
}
