import { isWatched } from '@filamu/shared';
import { Badge } from '../../components/ui/Badge.tsx';
import { cn } from '../../components/ui/cn.ts';
import { useWatchPositions } from './hooks.ts';
import { formatClock, RESUME_MIN_SECONDS } from './positions.ts';
import { useWatchingT } from './messages.ts';

/** "Watched" (past 90 %) or where the person stopped, for a film in My Downloads. */
export function WatchNote({ movieId, className }: { movieId: string; className?: string }) {
  const t = useWatchingT();
  const { positions } = useWatchPositions();
  const position = positions[movieId];
  if (!position || position.positionSeconds < RESUME_MIN_SECONDS) return null;
  return (
    <p className={cn('text-sm tabular-nums text-stone-600 dark:text-stone-400', className)}>
      {isWatched(position.positionSeconds, position.durationSeconds) ? (
        <Badge tone="success">{t('watching.note.watched')}</Badge>
      ) : (
        t('watching.note.stoppedAt', { time: formatClock(position.positionSeconds) })
      )}
    </p>
  );
}
