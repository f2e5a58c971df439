import { RATING_LABELS, type MovieRating } from '@filamu/shared';
import { useCommonT } from '../../lib/common-messages.ts';
import { cn } from './cn.ts';

const tones: Record<MovieRating, string> = {
  all: 'bg-green-100 text-green-900 ring-green-300 dark:bg-green-950 dark:text-green-200 dark:ring-green-800',
  pg: 'bg-sky-100 text-sky-900 ring-sky-300 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-800',
  '13': 'bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800',
  '18': 'bg-red-100 text-red-900 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800',
};

/**
 * A movie's maturity rating ("All", "PG", "13+", "18+"), named in full for screen readers. `relative` keeps the
 * visually hidden words (absolutely positioned) inside the badge: in a table that scrolls sideways they would
 * otherwise hang outside it and widen the page on a phone.
 */
export function RatingBadge({ rating, className }: { rating: MovieRating; className?: string }) {
  const t = useCommonT();
  return (
    <span
      className={cn(
        'relative inline-flex items-center rounded-md px-1.5 py-0.5 text-xs font-bold ring-1 ring-inset',
        tones[rating],
        className,
      )}
    >
      <span className="sr-only">{t('common.rated')}</span>
      {RATING_LABELS[rating]}
    </span>
  );
}
