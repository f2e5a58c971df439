import { SUBTITLE_MAX_BYTES, subtitleLabelOf } from '@filamu/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { downloads, movieSubtitles, movies } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../http/errors.ts';
import { adminMovie, type CatalogDeps, liveMovieForUpdate } from '../catalog/admin-movies.ts';
import { entitledTo, type Catalogue } from '../catalog/catalogue.ts';
import { type Downloader, kinayugandaOutstandingSql, ownDownloads } from '../movies/entitlement.ts';
import { convertSubtitles } from './convert.ts';
import type { Database } from '../../db/client.ts';

/**
 * Attaches (or replaces) one language of a movie's subtitles. The file is converted and checked before the
 * transaction; nothing is written when it is refused. Under the movie's row lock, one upsert: concurrent uploads of
 * the same language leave exactly one row (the last to commit), and a deleted movie cannot gain subtitles.
 */
export async function putSubtitles(
  deps: CatalogDeps,
  movieId: string,
  language: string,
  input: { text: string; label?: string },
  origin: string,
) {
  const converted = convertSubtitles(input.text);
  if (!converted.ok) {
    const { problem } = converted;
    if (problem.kind === 'too_large') {
      throw new AppError(
        'payload_too_large',
        `The subtitle file is ${Math.ceil(problem.bytes / 1024)} KB; the limit is ${SUBTITLE_MAX_BYTES / 1024} KB.`,
      );
    }
    throw new AppError('invalid_subtitles', problem.message, { issues: [{ path: 'text', message: problem.message }] });
  }
  const label = input.label ?? subtitleLabelOf(language);
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const movie = await liveMovieForUpdate(tx, movieId);
    await tx
      .insert(movieSubtitles)
      .values({ movieId, language, label, vtt: converted.vtt, bytes: converted.bytes, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [movieSubtitles.movieId, movieSubtitles.language],
        set: { label, vtt: converted.vtt, bytes: converted.bytes, updatedAt: now },
      });
    return adminMovie(deps, tx, movie, origin);
  });
}

export async function deleteSubtitles(deps: CatalogDeps, movieId: string, language: string, origin: string) {
  return deps.database.db.transaction(async (tx) => {
    const movie = await liveMovieForUpdate(tx, movieId);
    const removed = await tx
      .delete(movieSubtitles)
      .where(and(eq(movieSubtitles.movieId, movieId), eq(movieSubtitles.language, language)))
      .returning({ language: movieSubtitles.language });
    if (removed.length === 0) throw notFound('Subtitles in this language');
    return adminMovie(deps, tx, movie, origin);
  });
}

interface ReadDeps {
  database: Database;
  catalogue: Catalogue;
}

/**
 * One subtitle file, for whoever may have the movie: staff, anyone holding a download of it (started or done, even
 * once their subscription ends: the film is on their phone), and anyone the download rules would let start one now.
 */
export async function readSubtitles(
  deps: ReadDeps,
  caller: Downloader,
  movieId: string,
  language: string,
): Promise<string> {
  const db = deps.database.db;
  const [found] = await db
    .select({
      vtt: movieSubtitles.vtt,
      category: movies.category,
      active: movies.isActive,
      holdsDownload: sql<boolean>`exists (select 1 from ${downloads} where ${and(
        eq(downloads.movieId, movies.id),
        ownDownloads(caller),
      )})`,
      englishLocked: caller.staff ? sql<boolean>`false` : kinayugandaOutstandingSql(caller),
    })
    .from(movies)
    .leftJoin(movieSubtitles, and(eq(movieSubtitles.movieId, movies.id), eq(movieSubtitles.language, language)))
    .where(and(eq(movies.id, movieId), isNull(movies.deletedAt)));
  if (!found) throw notFound('Movie');
  if (!caller.staff && !found.holdsDownload) {
    const cached = (await deps.catalogue.current()).byId.get(movieId);
    const mayStart =
      found.active &&
      caller.subscribed &&
      cached !== undefined &&
      entitledTo(cached, caller) &&
      !(found.category === 'English' && found.englishLocked);
    if (!mayStart) throw forbidden('Subtitles come with the movie: download it first.');
  }
  if (found.vtt === null) throw notFound('Subtitles in this language');
  return found.vtt;
}
