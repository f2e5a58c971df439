import { isWatched } from '@filamu/shared';
import { useId } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../components/ui/Badge.tsx';
import { LinkButton } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { ProgressBar } from '../../components/ui/ProgressBar.tsx';
import { useDownloadsStore } from './manager.ts';
import { useDownloadsT } from './messages.ts';
import { MovieThumbnail } from '../movie/MovieThumbnail.tsx';
import { useWatchPositions } from '../watching/hooks.ts';
import { formatClock, progressPercent, RESUME_MIN_SECONDS } from '../watching/positions.ts';
import type { LocalPosition } from '../watching/store.ts';

/** At most this many films in the row: the ones people are really in the middle of. */
const MAX_ITEMS = 6;

function Item({
  position,
  onPhone,
  thumbnailUrl,
}: {
  position: LocalPosition;
  onPhone: boolean;
  thumbnailUrl: string | null;
}) {
  const t = useDownloadsT();
  const titleId = useId();
  const percent = progressPercent(position.positionSeconds, position.durationSeconds);
  return (
    <li>
      <Card className="flex h-full flex-col overflow-hidden p-0">
        <MovieThumbnail src={thumbnailUrl} alt="" />
        <div className="flex flex-1 flex-col gap-2 p-4">
          <h3 id={titleId} className="break-words font-bold">
            {position.title}
          </h3>
          <ProgressBar
            percent={percent}
            labelledBy={titleId}
            valueText={t('downloads.continue.value', { percent, at: formatClock(position.positionSeconds) })}
          />
          <p className="text-sm tabular-nums text-stone-600 dark:text-stone-400">
            {t('downloads.continue.of', {
              at: formatClock(position.positionSeconds),
              length: formatClock(position.durationSeconds),
            })}
          </p>
          <div className="mt-auto flex flex-wrap items-center gap-2 pt-1">
            {onPhone ? (
              <LinkButton
                to={`/downloads/${position.movieId}/play`}
                size="sm"
                aria-label={t('downloads.continue.resumeLabel', {
                  title: position.title,
                  at: formatClock(position.positionSeconds),
                })}
              >
                {t('downloads.action.resume')}
              </LinkButton>
            ) : (
              <>
                <Badge>{t('downloads.button.notOnPhone')}</Badge>
                <Link
                  to={`/movies/${position.movieId}`}
                  className="text-sm font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-300"
                  aria-label={t('downloads.continue.detailsLabel', { title: position.title })}
                >
                  {t('downloads.continue.details')}
                </Link>
              </>
            )}
          </div>
        </div>
      </Card>
    </li>
  );
}

/**
 * "Continue watching" on the dashboard and the library (decision 0163): films started and not finished, those on this
 * phone first, the most recent first. Positions from another phone come from the server when online. Nothing shows
 * until a film has been started. It lives here, not in watching/, because it sorts by what is on this phone: the
 * positions and the player know nothing of downloads (decision 0220).
 */
export function ContinueWatching({ className }: { className?: string }) {
  const t = useDownloadsT();
  const headingId = useId();
  const { loaded, positions } = useWatchPositions();
  const records = useDownloadsStore((s) => s.records);
  if (!loaded) return null;
  const items = Object.values(positions)
    .filter((p) => p.positionSeconds >= RESUME_MIN_SECONDS && !isWatched(p.positionSeconds, p.durationSeconds))
    .map((position) => {
      const record = records[position.movieId];
      return { position, record: record?.state === 'complete' ? record : undefined };
    })
    .sort((a, b) => Number(!!b.record) - Number(!!a.record) || b.position.updatedAt - a.position.updatedAt)
    .slice(0, MAX_ITEMS);
  if (items.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className={className}>
      <h2 id={headingId} className="text-xl font-bold tracking-tight">
        {t('downloads.continue.title')}
      </h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map(({ position, record }) => (
          <Item
            key={position.movieId}
            position={position}
            onPhone={!!record}
            thumbnailUrl={record?.thumbnailUrl ?? null}
          />
        ))}
      </ul>
    </section>
  );
}
