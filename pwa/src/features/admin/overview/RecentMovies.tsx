import { Badge } from '../../../components/ui/Badge.tsx';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { uploadDate } from '../movies/thumbnail.ts';
import { useRecentMovies } from './queries.ts';

/** Product §2 Overview: the first five movies of the admin list (newest first) with category and upload date. */
export function RecentMovies() {
  const movies = useRecentMovies();
  const recent = movies.data?.slice(0, 5) ?? [];
  return (
    <Card role="region" aria-labelledby="recent-movies" aria-busy={movies.isPending || undefined}>
      <CardTitle id="recent-movies">Recent Movies</CardTitle>
      {movies.isError ? (
        <LoadFailure
          look="line"
          className="mt-3"
          what="movies"
          error={movies.error}
          onRetry={() => void movies.refetch()}
        />
      ) : movies.isPending ? (
        <div className="mt-3 space-y-3" aria-hidden="true">
          {[0, 1, 2, 3, 4].map((i) => (
            <div key={i} className="h-10 animate-pulse rounded bg-stone-200 dark:bg-stone-800" />
          ))}
        </div>
      ) : recent.length === 0 ? (
        <p className="mt-3 text-stone-600 dark:text-stone-400">No movies uploaded yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-stone-200 dark:divide-stone-800">
          {recent.map((movie) => (
            <li key={movie.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <span className="min-w-0 font-semibold break-words">{movie.title}</span>
              <span className="flex items-center gap-3 text-sm text-stone-600 dark:text-stone-400">
                <Badge>{movie.category}</Badge>
                <span className="tabular-nums">{uploadDate(movie.created_at)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
