import { contracts, formatBytes, formatLastDownload, type DownloadStats } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../components/ui/Card.tsx';
import { api, errorMessage } from '../../lib/api.ts';
import { isOfflineError } from '../../lib/offline.ts';
import { queryKeys } from '../../lib/query-client.ts';
import { useDashboardT } from './messages.ts';
import { Row } from './Row.tsx';
import { useLocalDownloads, useStorageFigures } from '../downloads/hooks.ts';

/** Product §2: agents get fixed empty stats and no stats call is made. */
const AGENT_STATS: DownloadStats['summary'] = { totalMoviesDownloaded: 0, totalStorageUsed: 0, lastDownloadDate: null };

/** "2 movies · 140.7 KB": the finished films in this phone's storage and what its files hold. */
function OnThisPhone() {
  const t = useDashboardT();
  const local = useLocalDownloads();
  const storage = useStorageFigures();
  const films = local.filter((download) => download.state === 'complete').length;
  if (films === 0) return <>{t('dashboard.stats.noMovies')}</>;
  const movies = t('dashboard.stats.movies', { count: films });
  return <>{storage ? `${movies} · ${formatBytes(storage.usedByFilamu)}` : movies}</>;
}

/**
 * Product §2 Download Stats. What this phone holds (read from the phone) is kept apart from the account's totals over
 * every phone (the server's), so a new phone never seems to hold films it does not have (issue 16/22 §15).
 */
export function DownloadStatsCard({ isAgent }: { isAgent: boolean }) {
  const t = useDashboardT();
  const stats = useQuery({
    queryKey: queryKeys.downloadStats,
    queryFn: () => api(contracts.downloads.downloadStats),
    enabled: !isAgent,
  });
  const summary = isAgent ? AGENT_STATS : stats.data?.summary;
  const offline = !summary && (stats.fetchStatus === 'paused' || isOfflineError(stats.error));

  return (
    <Card role="region" aria-labelledby="download-stats" aria-busy={(!summary && !stats.isError) || undefined}>
      <CardTitle id="download-stats">{t('dashboard.stats.title')}</CardTitle>
      {summary ? (
        <dl className="mt-3 divide-y divide-stone-200 text-sm dark:divide-stone-800">
          <Row label={t('dashboard.stats.onThisPhone')}>
            <OnThisPhone />
          </Row>
          <Row label={t('dashboard.stats.allPhones')}>
            {t('dashboard.stats.movies', { count: summary.totalMoviesDownloaded })} ·{' '}
            {formatBytes(summary.totalStorageUsed)}
          </Row>
          <Row label={t('dashboard.stats.lastDownload')}>
            {formatLastDownload(summary.lastDownloadDate, new Date())}
          </Row>
        </dl>
      ) : offline ? (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">{t('dashboard.stats.offline')}</p>
      ) : stats.isError ? (
        <div role="alert" className="mt-3 text-sm">
          <p className="text-red-700 dark:text-red-400">
            {t('dashboard.error', { reason: errorMessage(stats.error, t('dashboard.stats.loadFailed')) })}
          </p>
          <Button size="sm" variant="outline" className="mt-3" onClick={() => void stats.refetch()}>
            {t('dashboard.stats.retry')}
          </Button>
        </div>
      ) : (
        <div className="mt-3 space-y-3" aria-hidden="true">
          {[0, 1, 2].map((i) => (
            <div key={i} className="h-6 animate-pulse rounded bg-stone-200 dark:bg-stone-800" />
          ))}
        </div>
      )}
    </Card>
  );
}
