import { isRatingHiddenBy, type MovieRating } from '@filamu/shared';
import { cn } from '../../components/ui/cn.ts';
import { LockIcon } from '../../components/ui/icons.tsx';
import { useSessionStore } from '../../lib/session.ts';
import { usePinT } from './messages.ts';

/** In My Downloads: this title plays only after the parental PIN (a download without a rating counts as 18+). */
export function PinLockNote({ rating, className }: { rating: MovieRating | undefined; className?: string }) {
  const t = usePinT();
  const status = useSessionStore((s) => s.user?.parentalPin);
  if (!status?.pinSet || !isRatingHiddenBy(status.hides, rating ?? '18')) return null;
  return (
    <p
      data-testid="pin-lock-note"
      className={cn('flex items-center gap-1.5 text-sm text-stone-600 dark:text-stone-400', className)}
    >
      <LockIcon className="size-4 shrink-0" aria-hidden="true" />
      {t('parental-pin.lockNote')}
    </p>
  );
}
