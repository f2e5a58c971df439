import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../../components/ui/cn.ts';

/** One of the dashboard's quick links (product §2): an icon, a title and a line of text. */
export function QuickCard({
  to,
  title,
  text,
  icon,
  tone,
}: {
  to: string;
  title: string;
  text: string;
  icon: ReactNode;
  tone: string;
}) {
  return (
    <li className="min-w-0">
      <Link
        to={to}
        className={cn(
          'group flex h-full items-start gap-4 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md focus-visible:outline-offset-2 dark:border-stone-800 dark:bg-stone-900',
        )}
      >
        <span className={cn('grid size-12 shrink-0 place-items-center rounded-xl', tone)}>{icon}</span>
        <span className="min-w-0">
          <span className="block text-lg font-bold group-hover:text-brand-700 dark:group-hover:text-brand-300">
            {title}
          </span>
          <span className="mt-1 block text-sm text-stone-600 dark:text-stone-400">{text}</span>
        </span>
      </Link>
    </li>
  );
}
