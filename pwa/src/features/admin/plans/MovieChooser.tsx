import type { AdminMovie, MovieCategoryName } from '@filamu/shared';
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Badge } from '../../../components/ui/Badge.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { Spinner } from '../../../components/ui/Spinner.tsx';
import { SHOWN_MOVIES, searchMovies, withCategory } from './plan-movies.ts';

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

const MOVES: Record<string, (at: number, last: number) => number> = {
  ArrowDown: (at, last) => Math.min(at + 1, last),
  ArrowUp: (at) => Math.max(at - 1, 0),
  Home: () => 0,
  End: (_at, last) => last,
};

/**
 * "Movies in this plan": search the library, tick movies, or take a whole category at once. Native checkboxes
 * in a labelled group (Space ticks, screen readers say checked or not); the count is announced politely. The
 * list is one Tab stop whose arrow keys move between movies, so a long library never buries the fields after it.
 */
export function MovieChooser({
  movies,
  loading,
  error,
  onRetry,
  selected,
  onChange,
  warning,
}: {
  movies: AdminMovie[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  selected: Set<string>;
  onChange: (next: Set<string>) => void;
  warning?: string;
}) {
  const legendId = useId();
  const [query, setQuery] = useState('');
  const found = useMemo(() => (movies ? searchMovies(movies, query) : []), [movies, query]);
  const shown = found.slice(0, SHOWN_MOVIES);
  const listRef = useRef<HTMLUListElement>(null);
  const keysId = useId();
  const [focusAt, setFocusAt] = useState(0);
  const tabStop = Math.min(focusAt, shown.length - 1);

  const move = (event: KeyboardEvent<HTMLUListElement>) => {
    const to = MOVES[event.key]?.(tabStop, shown.length - 1);
    if (to === undefined) return;
    event.preventDefault();
    setFocusAt(to);
    listRef.current?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')[to]?.focus();
  };

  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  const addCategory = (category: MovieCategoryName) => movies && onChange(withCategory(selected, movies, category));

  return (
    <fieldset
      aria-labelledby={legendId}
      className="min-w-0 rounded-xl border border-stone-200 p-3 dark:border-stone-800"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={legendId} className="font-semibold text-stone-900 dark:text-stone-50">
          Movies in this plan
        </h3>
        <p role="status" className="text-sm text-stone-700 tabular-nums dark:text-stone-300">
          {plural(selected.size, 'movie')} chosen
        </p>
      </div>
      <p className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">
        Subscribers of this plan can download the movies ticked here.
      </p>
      {warning && <p className="mt-2 text-sm font-medium text-amber-800 dark:text-amber-300">{warning}</p>}
      {loading && !movies ? (
        <div className="flex justify-center p-6">
          <Spinner className="size-6 text-brand-700 dark:text-brand-400" label="Loading movies" />
        </div>
      ) : error && !movies ? (
        <LoadFailure
          look="line"
          className="mt-3"
          what="the movies"
          error={error}
          fallback="Please check your connection."
          onRetry={onRetry}
        />
      ) : movies && movies.length === 0 ? (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
          The library has no movies yet. Upload some on the Movies tab, then choose them here.
        </p>
      ) : (
        movies && (
          <>
            <Input
              label="Search movies"
              type="search"
              className="mt-3"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              hint="Title, category or VJ"
              autoComplete="off"
            />
            <div className="mt-3 flex flex-wrap gap-2">
              <Button size="sm" variant="outline" onClick={() => addCategory('Kinayuganda')}>
                Select all Kinayuganda
              </Button>
              <Button size="sm" variant="outline" onClick={() => addCategory('English')}>
                Select all English
              </Button>
              <Button size="sm" variant="outline" onClick={() => onChange(new Set())} disabled={selected.size === 0}>
                Clear
              </Button>
            </div>
            {found.length === 0 ? (
              <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">No movie matches “{query.trim()}”.</p>
            ) : (
              <div
                role="region"
                aria-label="Movies to choose from"
                className="mt-3 max-h-80 overflow-y-auto rounded-lg border border-stone-200 dark:border-stone-800"
              >
                <p id={keysId} className="sr-only">
                  Arrow keys move between movies; Space ticks or unticks one.
                </p>
                <ul ref={listRef} onKeyDown={move} className="divide-y divide-stone-200 dark:divide-stone-800">
                  {shown.map((movie, index) => (
                    <li key={movie.id}>
                      <label className="flex min-h-11 cursor-pointer items-center gap-3 px-3 py-2 hover:bg-stone-100 dark:hover:bg-stone-800">
                        <input
                          type="checkbox"
                          className="size-4 shrink-0 accent-brand-700 dark:accent-brand-400"
                          checked={selected.has(movie.id)}
                          onChange={(e) => toggle(movie.id, e.target.checked)}
                          tabIndex={index === tabStop ? 0 : -1}
                          aria-describedby={index === tabStop ? keysId : undefined}
                          onFocus={() => setFocusAt(index)}
                        />
                        <span className="min-w-0 text-sm break-words">
                          <span className="font-medium text-stone-900 dark:text-stone-100">{movie.title}</span>{' '}
                          <span className="text-stone-600 dark:text-stone-400">
                            · {movie.category}
                            {movie.vj !== 'N/A' && ` · ${movie.vj}`}
                          </span>
                          {!movie.is_active && (
                            <Badge tone="neutral" className="ml-2">
                              Inactive
                            </Badge>
                          )}
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {found.length > shown.length && (
              <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
                Showing {shown.length.toLocaleString('en-US')} of {plural(found.length, 'movie')}: search to find the
                rest. Select all takes every movie of the category.
              </p>
            )}
          </>
        )
      )}
    </fieldset>
  );
}
