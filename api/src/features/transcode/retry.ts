import type { RenditionKind } from '@filamu/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { movieRenditions, movies } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { retryFailed } from './jobs.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Database } from '../../db/client.ts';
import type { Logger } from 'pino';
import type { TranscodeHub } from './hub.ts';

interface RetryDeps {
  database: Database;
  clock: Clock;
  transcode: TranscodeHub;
  logger: Logger;
}

/** An admin's "Try again" on a failed rendition: queued again, a new pg-boss job with fresh attempts; else 409. */
export async function retryRendition(deps: RetryDeps, movieId: string, kind: RenditionKind): Promise<void> {
  const now = deps.clock.now();
  const durationSeconds = await deps.database.db.transaction(async (tx) => {
    const [movie] = await tx
      .select({ id: movies.id, durationSeconds: movies.durationSeconds })
      .from(movies)
      .where(and(eq(movies.id, movieId), isNull(movies.deletedAt)))
      .for('update');
    if (!movie) throw notFound('Movie');
    if (await retryFailed(tx, movieId, kind, now)) return movie.durationSeconds;
    const [row] = await tx
      .select({ state: movieRenditions.state })
      .from(movieRenditions)
      .where(and(eq(movieRenditions.movieId, movieId), eq(movieRenditions.kind, kind)));
    if (!row) throw conflict('This movie has no renditions (it was saved while the server had no ffmpeg).');
    throw conflict(`Only a failed rendition can be tried again; this one is ${row.state}.`);
  });
  await deps.transcode.enqueue(movieId, [kind], durationSeconds, deps.logger);
}
