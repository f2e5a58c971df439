import { instructionSteps } from '@filamu/shared';
import { cn } from '../../../components/ui/cn.ts';

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
  const steps = instructionSteps(text);
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
