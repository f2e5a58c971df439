// Longer than 300 lines on purpose: the console's movie verbs (list, create, delete) share the admin view they answer
// with.
import type { AdminMovie, CreateMovieRequest } from '@filamu/shared';
import { type AdminRendition, CERTIFICATE_DATE_INVALID, PLAN_REQUIRED, RENDITION_KINDS } from '@filamu/shared';
import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import { type Executor, isUniqueViolation, type Database } from '../../db/client.ts';
import { downloads, movieRenditions, moviePlans, movieSubtitles, movies, subscriptionPlans } from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { UserRow } from '../../http/principal.ts';
import type { MovieRow } from '../movies/movie.ts';
import { isRasterImage, isVideo, SIGNATURE_BYTES } from '../storage/file-signatures.ts';
import { lockObjectKeys } from '../storage/key-locks.ts';
import { filesOf, sizesOf } from '../movies/files.ts';
import { POSTER_WIDTHS } from '../posters/make.ts';
import { contentTypeOfKey, posterKey, renditionKey, type ObjectStorage } from '../storage/storage.ts';
import { cancelRenditions, planRenditions } from '../transcode/jobs.ts';
import { probeUpload } from '../transcode/on-save.ts';
import { subtitlesOf } from '../movies/subtitle-summaries.ts';
import { toPublicMovie } from './movie-view.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Logger } from 'pino';
import type { TranscodeHub } from '../transcode/hub.ts';

export interface CatalogDeps {
  database: Database;
  storage: ObjectStorage;
  config: Config;
  clock: Clock;
  logger: Logger;
  transcode: TranscodeHub;
}

export const INACTIVE_PLAN = 'Choose active subscription plans only.';

function toAdminRendition(row: typeof movieRenditions.$inferSelect): AdminRendition {
  return {
    kind: row.kind,
    state: row.state,
    progress: row.progress,
    etaSeconds: row.etaSeconds,
    sizeBytes: row.sizeBytes,
    width: row.width,
    height: row.height,
    error: row.error,
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function toAdminMovies(
  deps: CatalogDeps,
  exec: Executor,
  rows: MovieRow[],
  origin: string,
): Promise<AdminMovie[]> {
  const ids = rows.map((m) => m.id);
  // One after another: `exec` may be a transaction, one connection, where node-postgres would only queue
  // queries sent together (and warns that doing so is deprecated).
  const plans = ids.length === 0 ? [] : await exec.select().from(moviePlans).where(inArray(moviePlans.movieId, ids));
  const counts =
    ids.length === 0
      ? []
      : await exec
          .select({ movieId: downloads.movieId, n: count() })
          .from(downloads)
          .where(and(inArray(downloads.movieId, ids), eq(downloads.status, 'completed')))
          .groupBy(downloads.movieId);
  const renditions =
    ids.length === 0 ? [] : await exec.select().from(movieRenditions).where(inArray(movieRenditions.movieId, ids));
  const subtitles = ids.length === 0 ? new Map() : await subtitlesOf(exec, ids);
  const countOf = new Map(counts.map((c) => [c.movieId, Number(c.n)]));
  const readyOf = (movieId: string) =>
    renditions
      .filter((r) => r.movieId === movieId && r.state === 'ready' && r.storageKey !== null && r.sizeBytes !== null)
      .map((r) => ({ size: r.kind, key: r.storageKey!, bytes: r.sizeBytes!, height: r.height, nonce: r.fileNonce }));
  return Promise.all(
    rows.map(async (movie) => ({
      ...(await toPublicMovie(
        deps,
        movie,
        sizesOf(filesOf(movie, readyOf(movie.id))),
        subtitles.get(movie.id) ?? [],
        origin,
      )),
      s3_key: movie.s3Key,
      is_active: movie.isActive,
      rating_confirmed: movie.ratingConfirmed,
      taken_down_at: movie.takenDownAt?.toISOString() ?? null,
      encryption: encryptionOf(movie, readyOf(movie.id)),
      plan_ids: plans.filter((p) => p.movieId === movie.id).map((p) => p.planId),
      download_count: countOf.get(movie.id) ?? 0,
      renditions: renditions
        .filter((r) => r.movieId === movie.id)
        .sort((a, b) => RENDITION_KINDS.indexOf(a.kind) - RENDITION_KINDS.indexOf(b.kind))
        .map(toAdminRendition),
    })),
  );
}

function encryptionOf(movie: MovieRow, ready: readonly { nonce: string | null }[]) {
  const encrypted = ready.filter((file) => file.nonce !== null).length + (movie.originalFileKey ? 1 : 0);
  return { encrypted, files: ready.length + 1 };
}

export async function adminMovie(deps: CatalogDeps, exec: Executor, movie: MovieRow, origin: string) {
  const [one] = await toAdminMovies(deps, exec, [movie], origin);
  return { id: movie.id, movie: one! };
}

/** One live movie as the admin console shows it. */
export async function adminMovieById(deps: CatalogDeps, id: string, origin: string) {
  const db = deps.database.db;
  const [movie] = await db
    .select()
    .from(movies)
    .where(and(eq(movies.id, id), isNull(movies.deletedAt)));
  if (!movie) throw notFound('Movie');
  return adminMovie(deps, db, movie, origin);
}

export async function listAdminMovies(deps: CatalogDeps, origin: string): Promise<{ movies: AdminMovie[] }> {
  const db = deps.database.db;
  const rows = await db
    .select()
    .from(movies)
    .where(isNull(movies.deletedAt))
    .orderBy(desc(movies.createdAt), desc(movies.id));
  return { movies: await toAdminMovies(deps, db, rows, origin) };
}

/** Every plan id must be an active plan (only active plans are offered on the upload form). */
export async function checkActivePlans(exec: Executor, planIds: string[]): Promise<void> {
  if (planIds.length === 0) throw new AppError('validation_error', PLAN_REQUIRED);
  const found = await exec
    .select({ id: subscriptionPlans.id })
    .from(subscriptionPlans)
    .where(and(inArray(subscriptionPlans.id, planIds), eq(subscriptionPlans.isActive, true)));
  if (found.length !== planIds.length) throw new AppError('validation_error', INACTIVE_PLAN);
}

/** The uploaded object must exist and really be what its folder says; its size is storage's, not the client's. */
async function checkUploadedFiles(deps: CatalogDeps, input: z.output<typeof CreateMovieRequest>) {
  const file = await deps.storage.head(input.movieS3Key);
  if (!file) throw new AppError('bad_request', 'The movie file has not been uploaded yet. Upload it, then save.');
  if (input.size !== undefined && input.size !== file.size) {
    throw new AppError(
      'bad_request',
      `The uploaded movie is ${file.size} bytes, not the ${input.size} bytes expected. Upload it again.`,
    );
  }
  if (!isVideo(await deps.storage.readStart(input.movieS3Key, SIGNATURE_BYTES))) {
    throw new AppError('bad_request', 'The movie file is not a video (MP4, WebM, MKV, MOV or 3GP).');
  }
  if (input.thumbnailS3Key) await checkUploadedThumbnail(deps, input.thumbnailS3Key);
  return file;
}

/** An uploaded poster must be there and be a picture (upload and edit alike). */
export async function checkUploadedThumbnail(deps: CatalogDeps, key: string): Promise<void> {
  const thumbnail = await deps.storage.head(key);
  if (!thumbnail) throw new AppError('bad_request', 'The thumbnail has not been uploaded yet. Upload it, then save.');
  if (!isRasterImage(await deps.storage.readStart(key, SIGNATURE_BYTES))) {
    throw new AppError('bad_request', 'The thumbnail must be a JPEG, PNG or WebP image.');
  }
}

/** A certificate is never dated after today (Kampala's day is at most a few hours ahead of UTC's). */
export function checkCertificateDate(deps: CatalogDeps, day: string | null | undefined): void {
  if (!day) return;
  const tomorrow = new Date(deps.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
  if (day > tomorrow) throw new AppError('validation_error', CERTIFICATE_DATE_INVALID);
}

/** The files checked before the transaction, seen again once their keys are locked. */
async function checkStillStored(deps: CatalogDeps, input: z.output<typeof CreateMovieRequest>): Promise<void> {
  if (!(await deps.storage.head(input.movieS3Key))) {
    throw new AppError('bad_request', 'The movie file has not been uploaded yet. Upload it, then save.');
  }
  if (input.thumbnailS3Key && !(await deps.storage.head(input.thumbnailS3Key))) {
    throw new AppError('bad_request', 'The thumbnail has not been uploaded yet. Upload it, then save.');
  }
}

/** Saves an uploaded movie (and, when given, its plans) in one transaction: never a movie half saved. */
export async function createMovie(
  deps: CatalogDeps,
  admin: UserRow,
  input: z.output<typeof CreateMovieRequest>,
  origin: string,
) {
  checkCertificateDate(deps, input.certificateDate);
  const file = await checkUploadedFiles(deps, input);
  const probed = await probeUpload(deps, input.movieS3Key);
  const now = deps.clock.now();
  try {
    const saved = await deps.database.db.transaction(async (tx) => {
      // The storage cleanup job deletes an unreferenced object only under this lock: checked again under it, a
      // file still there stays until this row commits, and then it is referenced (decision 0085).
      await lockObjectKeys(tx, [input.movieS3Key, input.thumbnailS3Key]);
      await checkStillStored(deps, input);
      if (input.planIds) await checkActivePlans(tx, input.planIds);
      const [movie] = await tx
        .insert(movies)
        .values({
          title: input.title,
          description: input.description,
          category: input.category,
          vj: input.vj,
          rating: input.rating,
          ratingConfirmed: true,
          certificateNumber: input.certificateNumber,
          certificateDate: input.certificateDate,
          s3Key: input.movieS3Key,
          thumbnailKey: input.thumbnailS3Key ?? null,
          sizeBytes: file.size,
          contentType: file.contentType ?? contentTypeOfKey(input.movieS3Key),
          durationSeconds: probed?.durationSeconds ?? null,
          width: probed?.width ?? null,
          height: probed?.height ?? null,
          createdBy: admin.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (input.planIds) {
        await tx.insert(moviePlans).values(input.planIds.map((planId) => ({ movieId: movie!.id, planId })));
      }
      // Without ffmpeg the movie is offered as uploaded (no rows: nothing will ever make them).
      if (probed) await planRenditions(tx, { id: movie!.id, sourceHeight: probed.height }, deps.transcode, now);
      return adminMovie(deps, tx, movie!, origin);
    });
    // The save never waits for encoding: one pg-boss job per rendition to make, sent after the commit.
    if (probed) {
      const queued = saved.movie.renditions.filter((r) => r.state === 'queued').map((r) => r.kind);
      await deps.transcode.enqueue(saved.id, queued, probed.durationSeconds, deps.logger);
    }
    // Phones get the original only encrypted (decision 0235): its copy is made by a job, after the commit.
    await deps.transcode.encrypt(saved.id, deps.logger);
    return saved;
  } catch (error) {
    if (isUniqueViolation(error, 'movies_s3_key_unique')) {
      throw conflict('This movie file is already in the library. Upload the file again for a new movie.');
    }
    throw error;
  }
}

export async function liveMovieForUpdate(exec: Executor, id: string): Promise<MovieRow> {
  const [movie] = await exec
    .select()
    .from(movies)
    .where(and(eq(movies.id, id), isNull(movies.deletedAt)))
    .for('update');
  if (!movie) throw notFound('Movie');
  return movie;
}

export async function setMovieActive(deps: CatalogDeps, id: string, isActive: boolean, origin: string) {
  const now = deps.clock.now();
  const [movie] = await deps.database.db
    .update(movies)
    // Activated again after a take-down: the rights came back (decision 0231).
    .set({ isActive, updatedAt: now, ...(isActive ? { takenDownAt: null } : {}) })
    .where(and(eq(movies.id, id), isNull(movies.deletedAt)))
    .returning();
  if (!movie) throw notFound('Movie');
  return adminMovie(deps, deps.database.db, movie, origin);
}

/** Replaces the movie's plans with `planIds` (all active, at least one). */
export async function attachPlans(deps: CatalogDeps, id: string, planIds: string[], origin: string) {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const movie = await liveMovieForUpdate(tx, id);
    await checkActivePlans(tx, planIds);
    await tx.delete(moviePlans).where(eq(moviePlans.movieId, id));
    await tx.insert(moviePlans).values(planIds.map((planId) => ({ movieId: id, planId })));
    const [updated] = await tx.update(movies).set({ updatedAt: now }).where(eq(movies.id, id)).returning();
    return adminMovie(deps, tx, updated ?? movie, origin);
  });
}

/**
 * Deletes a movie: its files go, its row stays marked deleted so download history keeps the title.
 * Files are removed after the commit; one that cannot be removed is logged, never a failed delete.
 */
export async function deleteMovie(deps: CatalogDeps, id: string): Promise<{ message: string }> {
  const now = deps.clock.now();
  const movie = await deps.database.db.transaction(async (tx) => {
    const found = await liveMovieForUpdate(tx, id);
    await tx.update(movies).set({ deletedAt: now, isActive: false, updatedAt: now }).where(eq(movies.id, id));
    await tx.delete(moviePlans).where(eq(moviePlans.movieId, id));
    // The row stays (history), so the cascade does not run: its subtitles go here, with it.
    await tx.delete(movieSubtitles).where(eq(movieSubtitles.movieId, id));
    // Read before they are cleared: encrypted files live under keys of their own (decision 0235).
    const stored = await tx
      .select({ key: movieRenditions.storageKey })
      .from(movieRenditions)
      .where(eq(movieRenditions.movieId, id));
    await cancelRenditions(tx, id, now);
    return { ...found, storedKeys: stored.flatMap((r) => (r.key ? [r.key] : [])) };
  });
  // Its pg-boss jobs are cancelled; this process's encodes stop now, another's at its next progress write.
  await deps.transcode.cancelMovie(id, deps.logger);
  const renditionKeys = RENDITION_KINDS.map((kind) => renditionKey(id, kind));
  // Every width a poster may exist in, recorded or not: a sweep may have stored some just before the delete.
  const posters = new Set([
    ...POSTER_WIDTHS.flatMap((w) => [posterKey(id, w), posterKey(id, w, movie.thumbnailKey)]),
    ...(movie.posterVariants ?? []).map((v) => v.key),
  ]);
  const files = [movie.s3Key, movie.originalFileKey, movie.thumbnailKey, ...renditionKeys, ...movie.storedKeys];
  for (const key of [...new Set(files), ...posters]) {
    if (!key) continue;
    await deps.storage.delete(key).catch((error: unknown) => {
      deps.logger.warn({ err: error, key, movieId: id }, 'could not delete a deleted movie’s file');
    });
  }
  return { message: `"${movie.title}" was deleted.` };
}
