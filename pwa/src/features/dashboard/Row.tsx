import type { ReactNode } from 'react';

/** One label–value line of a dashboard card's `<dl>`. */
export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 py-2.5">
      <dt className="text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="text-right font-semibold">{children}</dd>
    </div>
  );
}
