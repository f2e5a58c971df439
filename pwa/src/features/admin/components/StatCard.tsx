import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** One figure with its label; a link to the tab that explains it when `to` is given. */
export function StatCard({
  label,
  value,
  to,
  icon,
  hint,
  tone,
}: {
  label: string;
  value: ReactNode;
  to?: string;
  icon?: ReactNode;
  hint?: ReactNode;
  /** 'attention': something waits on the admin (amber border). */
  tone?: 'attention';
}) {
  const body = (
    <>
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm font-semibold text-stone-600 dark:text-stone-400">{label}</p>
        {icon && <span className="text-brand-700 dark:text-brand-300">{icon}</span>}
      </div>
      <p className="mt-2 break-words text-3xl font-extrabold tabular-nums tracking-tight">{value}</p>
      {hint && <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{hint}</p>}
    </>
  );
  const border =
    tone === 'attention'
      ? 'border-2 border-amber-500 dark:border-amber-600'
      : 'border border-stone-200 dark:border-stone-800';
  const box = `block min-w-0 rounded-2xl ${border} bg-white p-5 shadow-sm dark:bg-stone-900`;
  return to ? (
    <Link to={to} className={`${box} transition hover:-translate-y-0.5 hover:shadow-md`}>
      {body}
    </Link>
  ) : (
    <div className={box}>{body}</div>
  );
}
