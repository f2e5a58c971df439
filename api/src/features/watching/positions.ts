import {
  WATCH_CLOCK_SKEW_MS,
  type WatchPosition,
  type WatchPositionList,
  type WatchPositionBody,
  type WatchPositionResult,
} from '@filamu/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { downloads, movies, watchPositions } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';

type Row = typeof watchPositions.$inferSelect;

/** At most this many positions come back at once: far more than one person downloads, and bounded all the same. */
const MAX_POSITIONS_LISTED = 500;

const NO_DOWNLOAD = 'Movie';

function toPosition(row: Row): WatchPosition {
  return {
    movieId: row.movieId,
    positionSeconds: row.positionSeconds,
    durationSeconds: row.durationSeconds,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Postgres' foreign_key_violation, whichever driver raised it (the movie was deleted meanwhile). */
function isForeignKeyViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === '23503') return true;
  }
  return false;
}

/**
 * Stores where the person stopped, unless the server already holds a newer position (decision 0164): one
 * `insert … on conflict do update … where excluded.updated_at > updated_at`, so two concurrent writes and a late
 * older one resolve to the newest whatever order they arrive in. Only movies the person downloaded have positions.
 */
export async function saveWatchPosition(
  exec: Executor,
  userId: string,
  movieId: string,
  body: WatchPositionBody,
  now: Date,
): Promise<WatchPositionResult> {
  const updatedAt = new Date(body.updatedAt);
  if (updatedAt.getTime() > now.getTime() + WATCH_CLOCK_SKEW_MS) {
    throw new AppError(
      'validation_error',
      'updatedAt: The time is in the future. Check the date and time on this phone.',
      { issues: [{ path: 'updatedAt', message: 'The time is in the future.' }] },
    );
  }
  const [downloaded] = await exec
    .select({ id: downloads.id })
    .from(downloads)
    .where(and(eq(downloads.userId, userId), eq(downloads.movieId, movieId)))
    .limit(1);
  if (!downloaded) throw notFound(NO_DOWNLOAD);

  let written: Row[];
  try {
    written = await exec
      .insert(watchPositions)
      .values({
        userId,
        movieId,
        positionSeconds: body.positionSeconds,
        durationSeconds: body.durationSeconds,
        updatedAt,
      })
      .onConflictDoUpdate({
        target: [watchPositions.userId, watchPositions.movieId],
        set: {
          positionSeconds: sql`excluded.position_seconds`,
          durationSeconds: sql`excluded.duration_seconds`,
          updatedAt: sql`excluded.updated_at`,
        },
        setWhere: sql`excluded.updated_at > ${watchPositions.updatedAt}`,
      })
      .returning();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw notFound(NO_DOWNLOAD);
    throw error;
  }
  const [row] = written;
  if (row) return { ...toPosition(row), applied: true };

  // A newer (or equally new) position was there: it stays, and the caller learns it.
  const [kept] = await exec
    .select()
    .from(watchPositions)
    .where(and(eq(watchPositions.userId, userId), eq(watchPositions.movieId, movieId)));
  if (!kept) throw notFound(NO_DOWNLOAD);
  return { ...toPosition(kept), applied: false };
}

export async function listWatchPositions(exec: Executor, userId: string): Promise<WatchPositionList> {
  const rows = await exec
    .select({ position: watchPositions, title: movies.title })
    .from(watchPositions)
    .innerJoin(movies, eq(movies.id, watchPositions.movieId))
    .where(eq(watchPositions.userId, userId))
    .orderBy(desc(watchPositions.updatedAt), watchPositions.movieId)
    .limit(MAX_POSITIONS_LISTED);
  return { positions: rows.map((row) => ({ ...toPosition(row.position), title: row.title })) };
}
