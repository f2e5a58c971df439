import type { AdminMovie, AdminPlan, MovieCategoryName } from '@filamu/shared';

/** Rows the chooser draws at once: enough to scroll, few enough for a cheap phone with a 10,000-movie library. */
export const SHOWN_MOVIES = 200;

/** The movies a plan has now, read from each movie's plans (the admin movie list carries `plan_ids`). */
export function movieIdsOfPlan(movies: AdminMovie[], planId: string): Set<string> {
  return new Set(movies.filter((movie) => movie.plan_ids.includes(planId)).map((movie) => movie.id));
}

/** Movies whose title, category or VJ holds every word typed, case-insensitive. */
export function searchMovies(movies: AdminMovie[], query: string): AdminMovie[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return movies;
  return movies.filter((movie) => {
    const text = `${movie.title} ${movie.category} ${movie.vj}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** The selection with every movie of `category` added (the whole library's, whatever the search shows). */
export function withCategory(selected: Set<string>, movies: AdminMovie[], category: MovieCategoryName): Set<string> {
  const next = new Set(selected);
  for (const movie of movies) if (movie.category === category) next.add(movie.id);
  return next;
}

export function sameIds(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((id) => b.has(id));
}

/** Chosen movies a subscriber could download now: active ones. */
export function activeChosen(selected: Set<string>, movies: AdminMovie[]): number {
  return movies.filter((movie) => movie.is_active && selected.has(movie.id)).length;
}

/** A plan customers would be shown but cannot buy: active, visible and without an active movie (decision 0118). */
export function unsellable(plan: Pick<AdminPlan, 'is_active' | 'is_visible' | 'active_movie_count'>): boolean {
  return plan.is_active && plan.is_visible && plan.active_movie_count === 0;
}

/**
 * What customers see of a plan by the clock: on sale, past its sale cut-off (active and visible, yet offered to
 * nobody), or ended. `Sale closed (ends in under 6 hours)` says why a plan created late is invisible to customers.
 */
export function saleState(
  plan: Pick<AdminPlan, 'expires_at' | 'sale_ends_at'>,
  now: Date,
): { kind: 'on-sale' } | { kind: 'sale-closed'; text: string } | { kind: 'ended' } {
  const end = Date.parse(plan.expires_at);
  const saleEnd = Date.parse(plan.sale_ends_at);
  if (now.getTime() >= end) return { kind: 'ended' };
  if (now.getTime() < saleEnd) return { kind: 'on-sale' };
  const cutoffHours = Math.round((end - saleEnd) / 3_600_000);
  return {
    kind: 'sale-closed',
    text: `Sale closed (ends in under ${cutoffHours} hour${cutoffHours === 1 ? '' : 's'})`,
  };
}
