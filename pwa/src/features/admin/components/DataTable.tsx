import { useMemo, useState, type ReactNode } from 'react';
import { cn } from '../../../components/ui/cn.ts';
import { Spinner } from '../../../components/ui/Spinner.tsx';

export interface Column<T> {
  /** Unique within the table. */
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Makes the column sortable (by keyboard too): the value rows are compared by. */
  sortValue?: (row: T) => string | number | null;
  /** Right-align figures. */
  numeric?: boolean;
  /** Hide below `md` to keep a tablet table readable. */
  hideOnNarrow?: boolean;
}

type Direction = 'ascending' | 'descending';

function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en', { numeric: true, sensitivity: 'base' });
}

/**
 * A real `<table>` for screen readers (caption, column headers, `aria-sort`), sortable by clicking or
 * pressing a header's button; scrolls sideways inside its frame rather than widening the page.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  caption,
  empty,
  loading,
  initialSort,
  rowClassName,
}: {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** Said by screen readers; hidden visually. */
  caption: string;
  empty: ReactNode;
  loading?: boolean;
  initialSort?: { id: string; direction: Direction };
  rowClassName?: (row: T) => string | undefined;
}) {
  const [sort, setSort] = useState(initialSort ?? null);
  const sorted = useMemo(() => {
    const column = sort && columns.find((c) => c.id === sort.id);
    if (!column?.sortValue) return rows;
    const value = column.sortValue;
    const sign = sort?.direction === 'ascending' ? 1 : -1;
    return [...rows].sort((a, b) => sign * compare(value(a), value(b)));
  }, [rows, columns, sort]);

  const toggle = (id: string) =>
    setSort((s) => ({ id, direction: s?.id === id && s.direction === 'ascending' ? 'descending' : 'ascending' }));

  return (
    <div className="overflow-x-auto rounded-2xl border border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
      <table className="w-full text-left text-sm" aria-busy={loading || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-stone-200 bg-stone-50 text-stone-700 dark:border-stone-800 dark:bg-stone-950 dark:text-stone-300">
          <tr>
            {columns.map((column) => {
              const direction = sort?.id === column.id ? sort.direction : undefined;
              return (
                <th
                  key={column.id}
                  scope="col"
                  aria-sort={column.sortValue ? (direction ?? 'none') : undefined}
                  className={cn(
                    'px-4 py-3 font-semibold whitespace-nowrap',
                    column.numeric && 'text-right',
                    column.hideOnNarrow && 'max-md:hidden',
                  )}
                >
                  {column.sortValue ? (
                    <button
                      type="button"
                      onClick={() => toggle(column.id)}
                      className="inline-flex items-center gap-1 rounded hover:text-stone-950 dark:hover:text-white"
                    >
                      {column.header}
                      <span aria-hidden="true" className="text-xs">
                        {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
                      </span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
          {loading && rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-10 text-center">
                <Spinner className="size-6 text-brand-700 dark:text-brand-400" label="Loading" />
              </td>
            </tr>
          ) : sorted.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-10 text-center text-stone-600 dark:text-stone-400">
                {empty}
              </td>
            </tr>
          ) : (
            sorted.map((row) => (
              <tr key={rowKey(row)} className={cn('align-top', rowClassName?.(row))}>
                {columns.map((column) => (
                  <td
                    key={column.id}
                    className={cn(
                      'px-4 py-3',
                      column.numeric && 'text-right tabular-nums',
                      column.hideOnNarrow && 'max-md:hidden',
                    )}
                  >
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
