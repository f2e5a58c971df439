import { formatBytes } from '@filamu/shared';
import { ProgressBar } from '../../../components/ui/ProgressBar.tsx';
import { MovieThumbnail } from '../../movie/MovieThumbnail.tsx';
import { PinLockNote } from '../../parental-pin/PinLockNote.tsx';
import { WatchNote } from '../../watching/WatchNote.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { formatSpeed, sizeName, stateWords, timeWords } from '../describe.ts';
import { useDownloadsT } from '../messages.ts';
import type { LocalDownload } from '../engine/record.ts';
import { useLiveFigures } from '../hooks.ts';
import { percentOf } from '../movie-action.ts';
import { receivedDataText, usedDataText } from '../sizes.ts';
import { DownloadActions } from './DownloadActions.tsx';
import { RowUssdUnlock } from './UssdUnlock.tsx';

const TONE: Partial<Record<LocalDownload['state'], string>> = {
  complete: 'text-green-700 dark:text-green-400',
  failed: 'text-red-700 dark:text-red-400',
  'needs-space': 'text-red-700 dark:text-red-400',
  'waiting-network': 'text-amber-700 dark:text-amber-400',
  'needs-url': 'text-amber-700 dark:text-amber-400',
};

/** One download on this device: poster, title, state in words, progress, live speed and time left, and its actions. */
export function DownloadItem({ record }: { record: LocalDownload }) {
  const t = useDownloadsT();
  const live = useLiveFigures(record.movieId);
  const complete = record.state === 'complete';
  const received = complete ? record.size : Math.min(record.size, Math.max(record.committed, live?.received ?? 0));
  const percent = complete ? 100 : percentOf(received, record.size);
  const speed = record.state === 'downloading' && live ? live.speedBps : 0;
  const titleId = `download-title-${record.movieId}`;

  return (
    <li>
      <article
        aria-labelledby={titleId}
        className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900"
      >
        <div className="flex items-start gap-3">
          {/* The poster saved with the record: the list is recognisable at a glance, offline too once cached. */}
          <div className="w-24 shrink-0">
            <MovieThumbnail src={record.thumbnailUrl} alt="" sizes="6rem" compact className="rounded-lg" />
          </div>
          <div className="min-w-0">
            <h2 id={titleId} className="break-words text-base font-bold">
              {record.title}
            </h2>
            <p className={cn('mt-0.5 text-sm font-medium', TONE[record.state] ?? 'text-stone-600 dark:text-stone-400')}>
              {stateWords(record)}
            </p>
            {complete && <WatchNote movieId={record.movieId} className="mt-1" />}
            {complete && <PinLockNote rating={record.rating} className="mt-1" />}
          </div>
        </div>

        {/* A finished film needs no bar: the card stays short, so more of them fit a small phone. */}
        {!complete && (
          <>
            <ProgressBar
              percent={percent}
              labelledBy={titleId}
              valueText={`${percent}%, ${t('downloads.item.ofSize', { received: formatBytes(received), size: formatBytes(record.size) })}`}
              tone="brand"
              className="mt-3"
            />
            <p className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-sm tabular-nums text-stone-600 dark:text-stone-400">
              <span className="font-semibold text-stone-900 dark:text-stone-100">{percent}%</span>
              <span>
                {t('downloads.item.ofSize', { received: formatBytes(received), size: formatBytes(record.size) })}
              </span>
              {speed > 0 && <span>{formatSpeed(speed)}</span>}
              {speed > 0 && <span>{timeWords((record.size - received) / speed)}</span>}
            </p>
          </>
        )}
        {complete && (
          <p data-testid="data-used" className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            {record.sizeChoice ? `${sizeName(record.sizeChoice)} · ` : ''}
            {record.received
              ? receivedDataText(record.bytesFromNetwork)
              : usedDataText(record.bytesFromNetwork, record.size, record.nightBytes)}
          </p>
        )}

        <div className="mt-3">
          <DownloadActions record={record} />
        </div>
        <RowUssdUnlock record={record} />
      </article>
    </li>
  );
}
