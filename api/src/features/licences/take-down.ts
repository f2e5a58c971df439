import type { TakeDownResponse } from '@filamu/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { licences, movies } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';

/**
 * Takes a film down for rights (decision 0231), in one transaction: the movie is hidden (no grant, no licence) and
 * every live licence of it is revoked as `taken_down`, so each phone holding it stops playing it at its next online
 * check. Taking down again revokes nothing more and keeps the first date.
 */
export async function takeDownMovie(
  deps: { database: Database; clock: Clock },
  movieId: string,
): Promise<TakeDownResponse> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const [movie] = await tx
      .select({ title: movies.title, takenDownAt: movies.takenDownAt })
      .from(movies)
      .where(and(eq(movies.id, movieId), isNull(movies.deletedAt)))
      .for('update');
    if (!movie) throw notFound('Movie');
    await tx
      .update(movies)
      .set({ isActive: false, takenDownAt: movie.takenDownAt ?? now, updatedAt: now })
      .where(eq(movies.id, movieId));
    const revoked = await tx
      .update(licences)
      .set({ revokedAt: now, revokedReason: 'taken_down' })
      .where(and(eq(licences.movieId, movieId), isNull(licences.revokedAt)))
      .returning({ id: licences.id });
    const phones = revoked.length === 1 ? '1 phone stops' : `${revoked.length} phones stop`;
    return {
      message: `"${movie.title}" was taken down. ${phones} playing it at the next online check.`,
      revokedLicences: revoked.length,
    };
  });
}
