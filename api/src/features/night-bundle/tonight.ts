import type { TonightQueue } from '@filamu/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { movies, tonightQueueItems, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { filesOf, fileOfSize, readyRenditionsOf } from '../movies/files.ts';
import { liveMovie } from '../movies/movie.ts';

/**
 * Tonight's queue as the server keeps it (issue 21/22): the phone's downloads engine holds the real queue, this copy
 * only says who is waiting for a night window, for the window-start push (decision 0255).
 */

export async function myTonight(exec: Executor, userId: string): Promise<TonightQueue> {
  const rows = await exec
    .select({ movieId: tonightQueueItems.movieId, size: tonightQueueItems.size })
    .from(tonightQueueItems)
    .where(eq(tonightQueueItems.userId, userId))
    .orderBy(asc(tonightQueueItems.position));
  return { items: rows };
}

const refused = (index: number, message: string) =>
  new AppError('validation_error', `items.${index}.movieId: ${message}`, {
    issues: [{ path: `items.${index}.movieId`, message }],
  });

/** Every film once, on Filamu now, in a size it can be downloaded in now; throws the first that is not. */
async function checkItems(exec: Executor, items: TonightQueue['items']): Promise<void> {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.movieId)) throw refused(index, 'This film is already in tonight’s list.');
    seen.add(item.movieId);
  });
  if (items.length === 0) return;
  const ids = items.map((i) => i.movieId);
  const [rows, renditions] = await Promise.all([
    exec
      .select()
      .from(movies)
      .where(and(inArray(movies.id, ids), liveMovie())),
    readyRenditionsOf(exec, ids),
  ]);
  const byId = new Map(rows.map((m) => [m.id, m]));
  items.forEach((item, index) => {
    const movie = byId.get(item.movieId);
    if (!movie) throw refused(index, 'This film is not on Filamu now: take it out of tonight’s list.');
    try {
      fileOfSize(
        filesOf(
          movie,
          renditions.filter((r) => r.movieId === movie.id),
        ),
        item.size,
      );
    } catch (error) {
      if (error instanceof AppError) throw new AppError(error.code, `${movie.title}: ${error.message}`);
      throw error;
    }
  });
}

/** Postgres' foreign_key_violation, whichever driver raised it (a film deleted while the list was saved). */
function isForeignKeyViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === '23503') return true;
  }
  return false;
}

/**
 * Replaces the person's list (an empty one clears it). The person's row is locked first, so two saves from two
 * phones apply one after the other: the last one wins whole, never a mix.
 */
export async function setMyTonight(
  database: Database,
  userId: string,
  queue: TonightQueue,
  now: Date,
): Promise<TonightQueue> {
  try {
    return await database.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      await checkItems(tx, queue.items);
      await tx.delete(tonightQueueItems).where(eq(tonightQueueItems.userId, userId));
      if (queue.items.length > 0) {
        await tx
          .insert(tonightQueueItems)
          .values(queue.items.map((item, position) => ({ userId, ...item, position, createdAt: now })));
      }
      return myTonight(tx, userId);
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new AppError(
        'conflict',
        'A film in tonight’s list was just taken off Filamu. Look at the list and save it again.',
      );
    }
    throw error;
  }
}
