import type { LicenceFigures } from '@filamu/shared';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { DataTable, type Column } from '../components/DataTable.tsx';
import { formatCount } from './format.ts';

const WAY_NAMES = { download: 'Downloads', redownload: 'Re-downloads', transfer: 'Transfers' };

type FilmRow = LicenceFigures['byFilm'][number];

const columns: Column<FilmRow>[] = [
  {
    id: 'title',
    header: 'Movie Title',
    cell: (r) => <span className="font-semibold">{r.title}</span>,
    sortValue: (r) => r.title,
  },
  { id: 'issued', header: 'Licences', cell: (r) => formatCount(r.issued), sortValue: (r) => r.issued, numeric: true },
];

/**
 * Licences issued in the chosen range (decision 0230): by way, the films licensed most, and those revoked — what an
 * operator reports to the rights holders.
 */
export function LicenceFiguresCard({ figures, days }: { figures: LicenceFigures | undefined; days: number }) {
  return (
    <Card role="region" aria-labelledby="licences-issued">
      <CardTitle id="licences-issued" className="mb-1">
        Licences issued
      </CardTitle>
      <p className="mb-4 text-sm text-stone-600 dark:text-stone-400">
        In the last {days} days. A licence lets one phone play one film; a re-download moves it to a new phone.
      </p>
      <dl className="mb-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {(figures?.byWay ?? []).map(({ way, issued }) => (
          <div key={way} className="rounded-xl bg-stone-50 p-3 dark:bg-stone-800">
            <dt className="text-sm text-stone-600 dark:text-stone-300">{WAY_NAMES[way]}</dt>
            <dd className="text-xl font-bold">{formatCount(issued)}</dd>
          </div>
        ))}
        {figures && (
          <div className="rounded-xl bg-stone-50 p-3 dark:bg-stone-800">
            <dt className="text-sm text-stone-600 dark:text-stone-300">Revoked</dt>
            <dd className="text-xl font-bold">{formatCount(figures.revoked.moved + figures.revoked.takenDown)}</dd>
            <dd className="text-xs text-stone-600 dark:text-stone-300">
              {formatCount(figures.revoked.moved)} moved, {formatCount(figures.revoked.takenDown)} taken down
            </dd>
          </div>
        )}
      </dl>
      <DataTable
        columns={columns}
        rows={figures?.byFilm ?? []}
        rowKey={(r) => r.movieId}
        caption="Films with the most licences issued in the range"
        empty="No licences issued in this range."
        loading={!figures}
      />
    </Card>
  );
}
