import type { ReactNode } from 'react';

export function ResultRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2.5">
      <dt className="text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="min-w-0 text-right font-semibold break-words">{children}</dd>
    </div>
  );
}

export function ResultRows({ children }: { children: ReactNode }) {
  return <dl className="mt-6 divide-y divide-stone-200 text-left text-sm dark:divide-stone-800">{children}</dl>;
}

/** The outcome's round mark above its heading. */
export function OutcomeMark({ tone, children }: { tone: 'success' | 'danger' | 'waiting'; children: ReactNode }) {
  const tones = {
    success: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300',
    danger: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
    waiting: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
  };
  return <span className={`mx-auto grid size-16 place-items-center rounded-full ${tones[tone]}`}>{children}</span>;
}
