import { formatBytes } from '@filamu/shared';
import { useStorageFigures } from '../hooks.ts';
import { useDownloadsT } from '../messages.ts';

/** Space Filamu uses on this phone and what is left, as the browser reports it. */
export function StorageSummary() {
  const t = useDownloadsT();
  const figures = useStorageFigures();
  return (
    <dl className="grid grid-cols-2 gap-3 rounded-2xl border border-stone-200 bg-white p-4 text-sm shadow-sm dark:border-stone-800 dark:bg-stone-900">
      <div>
        <dt className="text-stone-600 dark:text-stone-400">{t('downloads.storage.used')}</dt>
        <dd className="mt-0.5 text-lg font-bold tabular-nums">{figures ? formatBytes(figures.usedByFilamu) : '…'}</dd>
      </div>
      <div>
        <dt className="text-stone-600 dark:text-stone-400">{t('downloads.storage.free')}</dt>
        <dd className="mt-0.5 text-lg font-bold tabular-nums">
          {!figures ? '…' : figures.free === null ? t('downloads.storage.unknown') : formatBytes(figures.free)}
        </dd>
      </div>
    </dl>
  );
}
