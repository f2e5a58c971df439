import type { ReactNode } from 'react';
import { cn } from '../../../components/ui/cn.ts';

/** The plans a movie is in, one tick each: the upload form and the edit dialog both choose them this way. */
export function PlanChecklist<P extends { id: string; plan_name: string }>({
  plans,
  chosen,
  onChange,
  describe = (plan) => plan.plan_name,
  className,
}: {
  plans: P[];
  chosen: string[];
  onChange: (planIds: string[]) => void;
  /** What a plan's line says; its name unless told. */
  describe?: (plan: P) => ReactNode;
  className?: string;
}) {
  return (
    <ul
      className={cn(
        'space-y-1 overflow-y-auto rounded-xl border border-stone-300 p-2 dark:border-stone-700',
        className,
      )}
    >
      {plans.map((plan) => (
        <li key={plan.id}>
          <label className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-2 hover:bg-stone-100 dark:hover:bg-stone-800">
            <input
              type="checkbox"
              className="size-4 accent-brand-700 dark:accent-brand-400"
              checked={chosen.includes(plan.id)}
              onChange={(e) =>
                onChange(e.target.checked ? [...chosen, plan.id] : chosen.filter((existing) => existing !== plan.id))
              }
            />
            <span className="text-sm">{describe(plan)}</span>
          </label>
        </li>
      ))}
    </ul>
  );
}
