import { contracts, DOWNLOAD_SIZE_LABELS, formatBytes, type DownloadHistoryEntry } from '@filamu/shared';
import { formatDate } from '../../lib/dates.ts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Badge, type BadgeTone } from '../../components/ui/Badge.tsx';
import { Button, LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { DownloadIcon, PlayIcon } from '../../components/ui/icons.tsx';
import { LoadFailure } from '../../components/ui/LoadFailure.tsx';
import { api } from '../../lib/api.ts';
import { isOfflineError } from '../../lib/offline.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { RedownloadDialog } from '../downloads/components/RedownloadDialog.tsx';
import { RESUMABLE_STATES } from '../downloads/engine/record.ts';
import { useChecking, useLocalDownload } from '../downloads/hooks.ts';
import { resumeDownload, startDownload } from '../downloads/actions.ts';
import { receivedDataText, usedDataText } from '../downloads/sizes.ts';
import { SLOT, useProfileT } from './messages.ts';
import type { ProfileMessageId } from '@filamu/shared/i18n/profile.en';

const STATUS: Record<DownloadHistoryEntry['status'], { label: ProfileMessageId; tone: BadgeTone }> = {
  completed: { label: 'profile.downloads.status.completed', tone: 'success' },
  downloading: { label: 'profile.downloads.status.downloading', tone: 'info' },
  starting: { label: 'profile.downloads.status.starting', tone: 'info' },
  paused: { label: 'profile.downloads.status.paused', tone: 'neutral' },
  failed: { label: 'profile.downloads.status.failed', tone: 'danger' },
  not_started: { label: 'profile.downloads.status.notStarted', tone: 'neutral' },
};

const linkClass = 'font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-300';

const movieOf = (entry: DownloadHistoryEntry) => ({
  id: entry.movieId,
  title: entry.movieTitle,
  category: entry.category,
  vj: 'N/A',
  thumbnail_url: null,
  size: entry.movieSize,
});

/**
 * Play when the file is on this phone; for a finished download whose file is not here, Re-download asks first what it
 * uses (a monthly re-download); for an unfinished one, Re-download resumes or starts it.
 */
function RowAction({ entry }: { entry: DownloadHistoryEntry }) {
  const t = useProfileT();
  const local = useLocalDownload(entry.movieId);
  const checking = useChecking(entry.movieId);
  const [again, setAgain] = useState(false);
  const onPhone = local?.state === 'complete';
  const noteId = `download-note-${entry.downloadId}`;

  if (onPhone) {
    return (
      <div className="flex flex-col items-start gap-1 sm:max-w-60 sm:items-end sm:text-right">
        <LinkButton to={`/downloads/${entry.movieId}/play`} size="sm" aria-describedby={noteId}>
          <PlayIcon className="size-4" /> {t('profile.downloads.play')}
        </LinkButton>
        <p id={noteId} className="text-xs text-stone-600 dark:text-stone-400">
          {t('profile.downloads.onPhone')}
        </p>
      </div>
    );
  }
  if (entry.status === 'completed' && (!local || local.state === 'cancelled')) {
    return (
      <div className="flex flex-col items-start gap-1 sm:max-w-60 sm:items-end sm:text-right">
        <Button size="sm" variant="outline" aria-describedby={noteId} onClick={() => setAgain(true)} loading={checking}>
          <DownloadIcon className="size-4" /> {t('profile.downloads.redownload')}
        </Button>
        <p id={noteId} className="text-xs text-stone-600 dark:text-stone-400">
          {t('profile.downloads.notOnPhone')}
        </p>
        <RedownloadDialog movie={movieOf(entry)} open={again} onClose={() => setAgain(false)} />
      </div>
    );
  }
  if (local && local.state !== 'cancelled' && !RESUMABLE_STATES.has(local.state)) {
    return (
      <Link to="/downloads" className={`${linkClass} text-sm`}>
        {t('profile.downloads.downloadingHere')}
      </Link>
    );
  }
  const redownload = async () => {
    if (local && RESUMABLE_STATES.has(local.state)) await resumeDownload(entry.movieId);
    else await startDownload(movieOf(entry));
    void queryClient.invalidateQueries({ queryKey: queryKeys.downloadHistory });
  };
  return (
    <Button size="sm" onClick={() => void redownload()} loading={checking}>
      <DownloadIcon className="size-4" /> {t('profile.downloads.redownload')}
    </Button>
  );
}

function HistoryRow({ entry }: { entry: DownloadHistoryEntry }) {
  const t = useProfileT();
  const status = STATUS[entry.status];
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="break-words font-semibold">{entry.movieTitle}</p>
        <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-600 dark:text-stone-400">
          <span>{formatDate(entry.lastDownloadDate)}</span>
          <span aria-hidden="true">·</span>
          <span>
            {DOWNLOAD_SIZE_LABELS[entry.size]} · {formatBytes(entry.movieSize)}
          </span>
          <Badge tone={status.tone}>
            {t(status.label)}
            {entry.status !== 'completed' && entry.progress > 0 ? ` · ${Math.floor(entry.progress)}%` : ''}
          </Badge>
        </p>
        {entry.status === 'completed' && (
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            {/* movieSize is the download's total bytes: the size it fetched, not the original's. */}
            {entry.received
              ? receivedDataText(entry.fetchedBytes)
              : usedDataText(entry.fetchedBytes, entry.movieSize, entry.nightBytes)}
          </p>
        )}
      </div>
      <RowAction entry={entry} />
    </li>
  );
}

/** Profile → Downloads (product §2): this account's download history, from the server. */
export function DownloadsTab() {
  const t = useProfileT();
  const history = useQuery({
    queryKey: queryKeys.downloadHistory,
    queryFn: () => api(contracts.downloads.downloadHistory),
  });
  const downloads = history.data?.downloads;

  if (!downloads) {
    const offline = history.fetchStatus === 'paused' || isOfflineError(history.error);
    if (history.isPending && !offline) {
      return (
        <Card className="py-8 text-center">
          <p className="text-stone-600 dark:text-stone-400">{t('profile.downloads.loading')}</p>
        </Card>
      );
    }
    const [before, after] = t('profile.downloads.elsewhere', { link: SLOT }).split(SLOT);
    const elsewhere = (
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
        {before}
        <Link to="/downloads" className={linkClass}>
          {t('profile.downloads.myDownloads')}
        </Link>
        {after}
      </p>
    );
    if (offline) {
      return (
        <Card role="status" className="py-8 text-center">
          <p className="font-semibold">{t('profile.downloads.offline')}</p>
          {elsewhere}
        </Card>
      );
    }
    return (
      <LoadFailure
        look="card"
        className="py-8"
        what={t('profile.downloads.loadWhat')}
        error={history.error}
        onRetry={() => void history.refetch()}
        retrying={history.isFetching}
      >
        {elsewhere}
      </LoadFailure>
    );
  }

  if (downloads.length === 0) {
    return (
      <Card className="flex flex-col items-center py-12 text-center">
        <DownloadIcon className="size-10 text-stone-400" />
        <p className="mt-4 text-lg font-semibold">{t('profile.downloads.empty')}</p>
        <p className="mt-1 text-stone-600 dark:text-stone-400">{t('profile.downloads.empty.text')}</p>
        <LinkButton to="/movies" className="mt-6">
          {t('profile.downloads.browse')}
        </LinkButton>
      </Card>
    );
  }

  return (
    <Card>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">{t('profile.downloads.history')}</h2>
        <Link to="/downloads" className={`${linkClass} text-sm`}>
          {t('profile.downloads.myDownloadsHere')}
        </Link>
      </div>
      <ul className="mt-2 divide-y divide-stone-200 dark:divide-stone-800">
        {downloads.map((entry) => (
          <HistoryRow key={entry.downloadId} entry={entry} />
        ))}
      </ul>
    </Card>
  );
}
