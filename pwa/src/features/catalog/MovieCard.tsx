import type { UserMovie } from '@filamu/shared';
import { useId } from 'react';
import { Link } from 'react-router';
import { DownloadButton } from '../downloads/DownloadButton.tsx';
import { useFromSizeText } from '../downloads/hooks.ts';
import { formatGb, formatRunningTime, vjLabel } from '../movie/format.ts';
import { useCatalogT } from './messages.ts';
import { RatingBadge } from '../../components/ui/RatingBadge.tsx';
import { MovieThumbnail } from '../movie/MovieThumbnail.tsx';
import { WatchNote } from '../watching/WatchNote.tsx';

/** Where the detail page's "Back to Movies" returns: the library with the same search and section. */
export interface LibraryReturn {
  libraryUrl: string;
}

/**
 * A movie in the library grid. The title link stretches over the whole card (one link per card for screen
 * readers and keyboards); the download control sits above it, so the two never nest.
 */
export function MovieCard({
  movie,
  libraryUrl,
  eager = false,
}: {
  movie: UserMovie;
  libraryUrl: string;
  /** On the first screen (the library's first cards): loaded at once, not lazily, as the page's largest picture. */
  eager?: boolean;
}) {
  useCatalogT();
  const titleId = useId();
  const sizeText = useFromSizeText(movie.sizes);
  const state: LibraryReturn = { libraryUrl };
  return (
    <li>
      <article
        aria-labelledby={titleId}
        data-testid="movie-card"
        className="relative flex h-full flex-col overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm transition hover:shadow-md has-[.card-link:focus-visible]:outline-2 has-[.card-link:focus-visible]:outline-offset-2 has-[.card-link:focus-visible]:outline-brand-800 dark:has-[.card-link:focus-visible]:outline-brand-300 dark:border-stone-800 dark:bg-stone-900"
      >
        <MovieThumbnail
          src={movie.thumbnail_url}
          srcSet={movie.thumbnail_srcset}
          sizes={CARD_SIZES}
          alt=""
          eager={eager}
        />
        <div className="flex flex-1 flex-col p-3">
          <h3 id={titleId} className="line-clamp-2 text-sm font-bold leading-snug sm:text-base">
            <Link
              to={`/movies/${encodeURIComponent(movie.id)}`}
              state={state}
              className="card-link after:absolute after:inset-0 after:content-[''] hover:text-brand-700 dark:hover:text-brand-300"
            >
              {movie.title}
            </Link>
          </h3>
          <p className="mt-1 flex min-w-0 items-center gap-1.5 text-xs text-stone-600 dark:text-stone-400">
            <RatingBadge rating={movie.rating} className="shrink-0" />
            <span className="truncate">{vjLabel(movie.vj)}</span>
          </p>
          <p className="text-xs font-medium text-stone-700 dark:text-stone-300">
            {movie.duration_seconds !== null && `${formatRunningTime(movie.duration_seconds)} · `}
            {sizeText ?? formatGb(movie.size)}
          </p>
          <WatchNote movieId={movie.id} className="mt-1" />
          <div className="relative z-10 mt-auto pt-3">
            <DownloadButton movie={movie} describedBy={titleId} />
          </div>
        </div>
      </article>
    </li>
  );
}

/** Product §9: eight of these show while the library loads. */
export function MovieCardSkeleton() {
  return (
    <li aria-hidden="true" data-testid="movie-skeleton">
      <div className="flex h-full animate-pulse flex-col overflow-hidden rounded-2xl border border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
        <div className="aspect-video w-full bg-stone-200 dark:bg-stone-800" />
        <div className="space-y-2 p-3">
          <div className="h-4 w-5/6 rounded bg-stone-200 dark:bg-stone-800" />
          <div className="h-3 w-1/2 rounded bg-stone-200 dark:bg-stone-800" />
          <div className="h-3 w-1/3 rounded bg-stone-200 dark:bg-stone-800" />
          <div className="mt-3 h-9 w-full rounded-xl bg-stone-200 dark:bg-stone-800" />
        </div>
      </div>
    </li>
  );
}

export const MOVIE_GRID = 'grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4';
/** A card's width in MOVIE_GRID: half the screen on a phone, a third from `sm`, 270 px in the 6xl page from `lg`. */
const CARD_SIZES = '(min-width: 1024px) 270px, (min-width: 640px) 33vw, 50vw';
