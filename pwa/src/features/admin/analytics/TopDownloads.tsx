import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { DataTable, type Column } from '../components/DataTable.tsx';
import { formatCount } from './format.ts';
import { useTopDownloads } from './queries.ts';

interface Row {
  rank: number;
  movie_id: string;
  movie_title: string;
  download_count: number;
}

const columns: Column<Row>[] = [
  { id: 'rank', header: 'Rank', cell: (r) => `#${r.rank}`, sortValue: (r) => r.rank },
  {
    id: 'title',
    header: 'Movie Title',
    cell: (r) => <span className="font-semibold">{r.movie_title}</span>,
    sortValue: (r) => r.movie_title,
  },
  {
    id: 'id',
    header: 'Movie ID',
    cell: (r) => <code className="text-xs break-all text-stone-600 dark:text-stone-400">{r.movie_id}</code>,
    hideOnNarrow: true,
  },
  {
    id: 'downloads',
    header: 'Downloads',
    cell: (r) => formatCount(r.download_count),
    sortValue: (r) => r.download_count,
    numeric: true,
  },
];

/** Product §2 Analytics: the ten most downloaded movies, ranked. */
export function TopDownloads() {
  const top = useTopDownloads();
  const rows = (top.data ?? []).map((stat, i) => ({ ...stat, rank: i + 1 }));
  return (
    <Card role="region" aria-labelledby="top-downloaded">
      <CardTitle id="top-downloaded" className="mb-4">
        Top Downloaded Movies
      </CardTitle>
      {top.isError ? (
        <LoadFailure what="download stats" error={top.error} onRetry={() => void top.refetch()} />
      ) : (
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(r) => r.movie_id}
          caption="Top downloaded movies, most downloaded first"
          empty="No download data available yet."
          loading={top.isPending}
        />
      )}
    </Card>
  );
}
