import { MOVIE_CATEGORY_NAMES, type MovieCategoryName } from '@filamu/shared';
import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { movies } from '../../db/schema.ts';
import { liveMovie } from '../downloads/entitlement.ts';
import type { MovieRow } from '../downloads/records.ts';

export interface ListingQuery {
  search?: string;
  category?: MovieCategoryName;
  page: number;
  pageSize: number;
}

export interface ListingPage {
  movies: MovieRow[];
  page: number;
  pageSize: number;
  totals: Record<MovieCategoryName, number>;
  hasMore: boolean;
}

/** `%`, `_` and `\` typed by a person match themselves, not any character. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * One page of live movies, newest first, paged per category so the library can fill both of its sections
 * (page 2 is the next `pageSize` Kinayuganda and the next `pageSize` English movies). Search is a
 * case-insensitive substring match on title or description, served by the trigram indexes.
 */
export async function listLiveMovies(exec: Executor, query: ListingQuery): Promise<ListingPage> {
  const search = query.search ? likePattern(query.search) : null;
  const filters = and(
    liveMovie(),
    query.category ? eq(movies.category, query.category) : undefined,
    search ? or(ilike(movies.title, search), ilike(movies.description, search)) : undefined,
  );
  const offset = (query.page - 1) * query.pageSize;
  const categories = query.category ? [query.category] : MOVIE_CATEGORY_NAMES;
  // One index range scan per category (movies_live_by_category), so a page costs the same at 50 or 50,000 movies.
  const [totals, pages] = await Promise.all([
    exec.select({ category: movies.category, n: count() }).from(movies).where(filters).groupBy(movies.category),
    Promise.all(
      categories.map((category) =>
        exec
          .select()
          .from(movies)
          .where(and(filters, eq(movies.category, category)))
          .orderBy(desc(movies.createdAt), desc(movies.id))
          .limit(query.pageSize)
          .offset(offset),
      ),
    ),
  ]);
  const byCategory: Record<MovieCategoryName, number> = { Kinayuganda: 0, English: 0 };
  for (const t of totals) byCategory[t.category] = Number(t.n);
  return {
    movies: pages.flat().sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)),
    page: query.page,
    pageSize: query.pageSize,
    totals: byCategory,
    hasMore: Object.values(byCategory).some((n) => n > offset + query.pageSize),
  };
}
