import { formatBytes, type UserMovie } from '@filamu/shared';
import { useState, type ReactNode } from 'react';
import { useLiveFigures, useLocalDownload, useStorageFigures } from './hooks.ts';
import { measuredSpeed } from './speed-memory.ts';
import { estimateSeconds, spaceVerdict, TYPICAL_3G_BPS } from './estimates.ts';
import { formatEstimate, formatGb, formatSpeed } from '../movie/format.ts';
import { useDownloadsT } from './messages.ts';

function Fact({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <div className="py-3">
      <dt className="text-sm text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="mt-0.5 font-semibold">{value}</dd>
      {note && <dd className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">{note}</dd>}
    </div>
  );
}

/**
 * Before (and while) downloading on a slow link: how long the rest will take at the speed this phone measured
 * (or a typical 3G speed before any), and whether it fits in the space left, with a warning when it does not.
 */
export function DownloadFacts({ movie }: { movie: UserMovie }) {
  const t = useDownloadsT();
  const local = useLocalDownload(movie.id);
  const live = useLiveFigures(movie.id);
  const storage = useStorageFigures();
  const [lastMeasured] = useState(() => measuredSpeed());

  const onPhone = local && local.state !== 'cancelled' ? Math.max(local.committed, live?.received ?? 0) : 0;
  const space = spaceVerdict(movie.size, onPhone, storage?.free ?? null);
  const transferring = local?.state === 'downloading' && !!live && live.speedBps > 0;
  const speed = transferring ? live.speedBps : (lastMeasured ?? TYPICAL_3G_BPS);
  const speedNote = transferring
    ? t('downloads.facts.speedNow', { speed: formatSpeed(speed) })
    : lastMeasured
      ? t('downloads.facts.speedMeasured', { speed: formatSpeed(speed) })
      : t('downloads.facts.speedTypical', { speed: formatSpeed(TYPICAL_3G_BPS) });

  return (
    <div className="mt-4">
      <dl className="divide-y divide-stone-200 dark:divide-stone-800">
        <Fact
          label={onPhone > 0 ? t('downloads.facts.timeLeft') : t('downloads.facts.time')}
          value={formatEstimate(estimateSeconds(space.needed, speed))}
          note={speedNote}
        />
        <Fact
          label={t('downloads.facts.free')}
          value={
            storage === null
              ? t('downloads.button.checking')
              : space.free === null
                ? t('downloads.storage.unknown')
                : formatGb(space.free)
          }
          note={
            storage?.usedByFilamu ? t('downloads.facts.used', { bytes: formatBytes(storage.usedByFilamu) }) : undefined
          }
        />
      </dl>
      {space.fits === false && (
        <p
          data-testid="space-warning"
          className="mt-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
        >
          <strong className="font-semibold">{t('downloads.facts.noSpace')}</strong>{' '}
          {t('downloads.facts.noSpace.text', {
            title: movie.title,
            needed: formatGb(space.needed),
            free: formatGb(space.free ?? 0),
          })}
        </p>
      )}
    </div>
  );
}
