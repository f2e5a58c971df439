import { useId, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { cn } from '../../../components/ui/cn.ts';

export interface SeriesRow {
  key: string;
  label: string;
  value: string;
}

/**
 * One chart in a `<figure>`: a visible title and the period's total, the drawing (hidden from screen readers)
 * and the same series as a table: visually hidden until "Show as table" is pressed, always read by screen
 * readers, so nobody needs the picture to get the numbers.
 */
export function ChartFigure({
  title,
  total,
  caption,
  columns,
  rows,
  empty,
  children,
}: {
  title: string;
  /** The period's total, already formatted. */
  total: string;
  /** Says what is drawn and over which period. */
  caption: string;
  /** Table headers: the period column and the value column. */
  columns: [string, string];
  rows: SeriesRow[];
  /** Shown instead of the drawing when the series is all zeros. */
  empty?: string;
  children: ReactNode;
}) {
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  const headingId = useId();
  return (
    <figure
      aria-labelledby={headingId}
      className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm dark:border-stone-800 dark:bg-stone-900"
    >
      <div>
        <h2 id={headingId} className="text-lg font-semibold text-stone-900 dark:text-stone-50">
          {title}
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Total <span className="text-lg font-bold tabular-nums text-stone-900 dark:text-stone-50">{total}</span>
        </p>
      </div>
      {empty ? (
        <p className="flex h-60 items-center justify-center text-center text-stone-600 dark:text-stone-400">{empty}</p>
      ) : (
        <div aria-hidden="true" className="mt-4 h-60">
          {children}
        </div>
      )}
      <figcaption className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-stone-600 dark:text-stone-400">
        <span>{caption}</span>
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={showTable}
          aria-controls={tableId}
          onClick={() => setShowTable((shown) => !shown)}
        >
          {showTable ? 'Hide table' : 'Show as table'}
        </Button>
      </figcaption>
      <div id={tableId} className={cn(showTable ? 'mt-3 max-h-72 overflow-y-auto' : 'sr-only')}>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{title}</caption>
          <thead className="sticky top-0 bg-stone-50 text-stone-700 dark:bg-stone-950 dark:text-stone-300">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                {columns[0]}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                {columns[1]}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row" className="px-3 py-1.5 font-normal">
                  {row.label}
                </th>
                <td className="px-3 py-1.5 text-right tabular-nums">{row.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** A chart-shaped placeholder while the series loads. */
export function ChartSkeleton({ title }: { title: string }) {
  return (
    <div
      aria-hidden="true"
      className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm dark:border-stone-800 dark:bg-stone-900"
    >
      <p className="text-lg font-semibold text-stone-900 dark:text-stone-50">{title}</p>
      <div className="mt-4 flex h-60 animate-pulse items-end gap-2">
        {[40, 65, 30, 80, 55, 70, 45, 90, 60, 35].map((h, i) => (
          <div key={i} className="flex-1 rounded-t bg-stone-200 dark:bg-stone-800" style={{ height: `${h}%` }} />
        ))}
      </div>
    </div>
  );
}
