import { UNKNOWN_PLAN_MOVIES } from '@filamu/shared';
import { and, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { moviePlans, movies } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';

/** Rows per statement: two parameters each, far below Postgres' 65,535 parameters per statement. */
const CHUNK = 5000;

export interface MovieCount {
  all: number;
  active: number;
}

/** Live (not deleted) movies each plan includes, and how many of them are active. */
export async function movieCounts(exec: Executor, planIds: string[]): Promise<Map<string, MovieCount>> {
  if (planIds.length === 0) return new Map();
  const rows = await exec
    .select({
      planId: moviePlans.planId,
      all: count(),
      active: sql<number>`count(*) filter (where ${movies.isActive})`,
    })
    .from(moviePlans)
    .innerJoin(movies, eq(movies.id, moviePlans.movieId))
    .where(and(inArray(moviePlans.planId, planIds), isNull(movies.deletedAt)))
    .groupBy(moviePlans.planId);
  return new Map(rows.map((r) => [r.planId, { all: Number(r.all), active: Number(r.active) }]));
}

/** True where the plan in `planId` includes at least one active movie: something its subscribers can download. */
export function hasActiveMovie(planId: AnyPgColumn): SQL {
  return sql`exists (select 1 from ${moviePlans} join ${movies} on ${movies.id} = ${moviePlans.movieId}
    where ${moviePlans.planId} = ${planId} and ${movies.isActive} and ${movies.deletedAt} is null)`;
}

/** The plan lists this film (whatever its state: the caller's other conditions say whether it can be bought). */
export function includesMovie(planId: AnyPgColumn, movieId: string): SQL {
  return sql`exists (select 1 from ${moviePlans} where ${moviePlans.planId} = ${planId} and ${moviePlans.movieId} = ${movieId})`;
}

/** Of `planIds`, those including an active English movie: only there does the English rule concern a buyer. */
export async function plansWithEnglish(exec: Executor, planIds: string[]): Promise<Set<string>> {
  if (planIds.length === 0) return new Set();
  const rows = await exec
    .selectDistinct({ planId: moviePlans.planId })
    .from(moviePlans)
    .innerJoin(movies, eq(movies.id, moviePlans.movieId))
    .where(
      and(
        inArray(moviePlans.planId, planIds),
        eq(movies.category, 'English'),
        eq(movies.isActive, true),
        isNull(movies.deletedAt),
      ),
    );
  return new Set(rows.map((row) => row.planId));
}

export async function planHasActiveMovie(exec: Executor, planId: string): Promise<boolean> {
  const [row] = await exec
    .select({ id: moviePlans.movieId })
    .from(moviePlans)
    .innerJoin(movies, eq(movies.id, moviePlans.movieId))
    .where(and(eq(moviePlans.planId, planId), eq(movies.isActive, true), isNull(movies.deletedAt)))
    .limit(1);
  return row !== undefined;
}

/**
 * Makes `movieIds` the plan's movies, in the caller's transaction. Every id must be a movie in the library
 * (active or not, never a deleted one); the rows are share-locked so a movie deleted meanwhile waits for this
 * commit and then takes its links with it.
 */
export async function replacePlanMovies(exec: Executor, planId: string, movieIds: string[]): Promise<void> {
  for (let i = 0; i < movieIds.length; i += CHUNK) {
    const chunk = movieIds.slice(i, i + CHUNK);
    const found = await exec
      .select({ id: movies.id })
      .from(movies)
      .where(and(inArray(movies.id, chunk), isNull(movies.deletedAt)))
      .for('share');
    if (found.length !== chunk.length) throw new AppError('validation_error', UNKNOWN_PLAN_MOVIES);
  }
  await exec.delete(moviePlans).where(eq(moviePlans.planId, planId));
  for (let i = 0; i < movieIds.length; i += CHUNK) {
    await exec.insert(moviePlans).values(movieIds.slice(i, i + CHUNK).map((movieId) => ({ movieId, planId })));
  }
}
