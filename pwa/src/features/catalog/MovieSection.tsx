import type { MovieCategoryName, UserMovie, UserMovieList } from '@filamu/shared';
import { useState, type ReactNode } from 'react';
import { Badge } from '../../components/ui/Badge.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { LoadFailure } from '../../components/ui/LoadFailure.tsx';
import { MOVIE_GRID, MovieCard } from './MovieCard.tsx';
import { useSectionMore, type LibraryFilter } from './queries.ts';
import { type CatalogMessageId, useCatalogT } from './messages.ts';

/** Each section's heading and empty message (catalogue ids, said in the active language) and its slug. */
export const SECTIONS: Record<MovieCategoryName, { heading: CatalogMessageId; empty: CatalogMessageId; slug: string }> =
  {
    Kinayuganda: {
      heading: 'catalog.section.kinayuganda',
      empty: 'catalog.section.kinayuganda.empty',
      slug: 'kinayuganda',
    },
    English: { heading: 'catalog.section.english', empty: 'catalog.section.english.empty', slug: 'english' },
  };

/** The first page's movies of the category followed by the ones "Load more" fetched (each once). */
function sectionMovies(category: MovieCategoryName, first: UserMovieList, more: UserMovieList[]): UserMovie[] {
  const seen = new Set<string>();
  const movies: UserMovie[] = [];
  for (const movie of [...first.movies, ...more.flatMap((page) => page.movies)]) {
    if (movie.category !== category || seen.has(movie.id)) continue;
    seen.add(movie.id);
    movies.push(movie);
  }
  return movies;
}

/**
 * One section of the library: heading with its count, the grid, its empty message and its own "Load more".
 * Mount it with a `key` per filter so a new search starts again from the first page.
 */
export function MovieSection({
  category,
  filter,
  first,
  libraryUrl,
  busy,
  notice,
  eagerPosters = 0,
}: {
  category: MovieCategoryName;
  filter: LibraryFilter;
  first: UserMovieList;
  libraryUrl: string;
  /** A new search is loading; the shown results are the previous ones. */
  busy: boolean;
  /** Shown between the heading and the grid (the English lock explanation). */
  notice?: ReactNode;
  /** How many leading posters are on the first screen (loaded at once instead of lazily). */
  eagerPosters?: number;
}) {
  const t = useCatalogT();
  const { heading, empty, slug } = SECTIONS[category];
  const [wantMore, setWantMore] = useState(false);
  const more = useSectionMore(filter, category, wantMore);
  const pages = more.data?.pages ?? [];
  const movies = sectionMovies(category, first, pages);
  const total = first.totals[category];
  // Until "Load more" is first pressed the first page tells; after that the continuation does (and a failed
  // first continuation page keeps the button, as its retry).
  const hasMore = !wantMore ? total > first.pageSize : more.data ? more.hasNextPage : true;
  const loadingMore = more.isFetchingNextPage || (more.isFetching && !more.data);
  const headingId = `${slug}-heading`;

  const loadMore = () => {
    if (!wantMore) setWantMore(true);
    else if (!more.data) void more.refetch();
    else void more.fetchNextPage();
  };

  return (
    <section aria-labelledby={headingId} aria-busy={busy || loadingMore || undefined} className="mt-10">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id={headingId} className="text-xl font-bold sm:text-2xl">
          {t(heading)}
        </h2>
        <Badge tone="brand">
          {total}
          <span className="sr-only"> {t('catalog.section.count', { count: total })}</span>
        </Badge>
      </div>
      {notice}
      {movies.length === 0 ? (
        <p className="mt-4 rounded-2xl border border-dashed border-stone-300 p-6 text-center text-stone-600 dark:border-stone-700 dark:text-stone-400">
          {t(empty)}
        </p>
      ) : (
        <ul className={`mt-4 ${MOVIE_GRID}`}>
          {movies.map((movie, index) => (
            <MovieCard key={movie.id} movie={movie} libraryUrl={libraryUrl} eager={index < eagerPosters} />
          ))}
        </ul>
      )}
      {more.isError && !loadingMore && (
        <LoadFailure look="line" className="mt-4 text-center" what="movies" error={more.error} />
      )}
      {hasMore && (
        <div className="mt-6 flex justify-center">
          <Button
            variant="outline"
            onClick={loadMore}
            loading={loadingMore}
            aria-describedby={headingId}
            className="w-full sm:w-auto sm:min-w-48"
          >
            {loadingMore ? t('catalog.section.loadingMore') : t('catalog.section.loadMore')}
          </Button>
        </div>
      )}
    </section>
  );
}
