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

/** A row as a card on phones. */
const CARD =
  'max-md:block max-md:rounded-2xl max-md:border max-md:border-stone-200 max-md:bg-white max-md:p-2 max-md:dark:border-stone-800 max-md:dark:bg-stone-900';
/** A cell as a "header: value" line on phones; the header comes from `data-label`, the value may wrap anywhere. */
const CARD_CELL =
  'max-md:flex max-md:items-start max-md:justify-between max-md:gap-3 max-md:px-2 max-md:py-1.5 max-md:text-right max-md:[overflow-wrap:anywhere] max-md:before:shrink-0 max-md:before:text-left max-md:before:font-semibold max-md:before:text-stone-600 max-md:before:content-[attr(data-label)] max-md:dark:before:text-stone-400';

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
 *
 * Below `md` (phones) the same rows are drawn as cards: each row a box, each cell a "label: value" line with
 * the column's header as its label (docs/decisions/0186). One DOM for both, so a row is still a row to
 * assistive technology and to tests; a sideways-scrolling table on a phone hid the status and the actions.
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
    <div className="md:overflow-x-auto md:rounded-2xl md:border md:border-stone-200 md:bg-white md:dark:border-stone-800 md:dark:bg-stone-900">
      <table className="w-full text-left text-sm max-md:block" aria-busy={loading || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className="max-md:hidden border-b border-stone-200 bg-stone-50 text-stone-700 dark:border-stone-800 dark:bg-stone-950 dark:text-stone-300">
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
        <tbody className="divide-y divide-stone-200 dark:divide-stone-800 max-md:block max-md:space-y-3 max-md:divide-y-0">
          {loading && rows.length === 0 ? (
            <tr className={CARD}>
              <td colSpan={columns.length} className="px-4 py-10 text-center max-md:block">
                <Spinner className="size-6 text-brand-700 dark:text-brand-400" label="Loading" />
              </td>
            </tr>
          ) : sorted.length === 0 ? (
            <tr className={CARD}>
              <td
                colSpan={columns.length}
                className="px-4 py-10 text-center text-stone-600 max-md:block dark:text-stone-400"
              >
                {empty}
              </td>
            </tr>
          ) : (
            sorted.map((row) => (
              <tr key={rowKey(row)} className={cn('align-top', CARD, rowClassName?.(row))}>
                {columns.map((column) => (
                  <td
                    key={column.id}
                    data-label={column.header}
                    className={cn(
                      'px-4 py-3',
                      CARD_CELL,
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
