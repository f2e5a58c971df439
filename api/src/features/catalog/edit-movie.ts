import type { UpdateMovieRequest } from '@filamu/shared';
import { vjIssue } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { moviePlans, movies } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { lockObjectKeys } from '../storage/key-locks.ts';
import {
  adminMovie,
  type CatalogDeps,
  checkActivePlans,
  checkCertificateDate,
  checkUploadedThumbnail,
  liveMovieForUpdate,
} from './admin-movies.ts';

type MovieEdit = z.output<typeof UpdateMovieRequest>;

/**
 * Changes a movie's details without touching its file (decision 0167), every field checked as on upload, all in one
 * transaction. The catalogue version moves with the row (triggers), so every replica's cache and every library ETag
 * follow. A new poster clears the small variants: the poster sweep makes them again from it, under new keys.
 */
export async function updateMovie(deps: CatalogDeps, id: string, edit: MovieEdit, origin: string) {
  checkCertificateDate(deps, edit.certificateDate);
  if (edit.thumbnailS3Key) await checkUploadedThumbnail(deps, edit.thumbnailS3Key);
  const now = deps.clock.now();
  const { saved, replacedPosters } = await deps.database.db.transaction(async (tx) => {
    // Same lock as on upload: the storage cleanup never deletes the new poster between this check and the commit.
    if (edit.thumbnailS3Key) await lockObjectKeys(tx, [edit.thumbnailS3Key]);
    const movie = await liveMovieForUpdate(tx, id);
    if (edit.thumbnailS3Key && !(await deps.storage.head(edit.thumbnailS3Key))) {
      throw new AppError('bad_request', 'The thumbnail has not been uploaded yet. Upload it, then save.');
    }
    const category = edit.category ?? movie.category;
    const vj = edit.vj ?? movie.vj;
    const issue = vjIssue({ category, vj });
    if (issue) throw new AppError('validation_error', issue);
    if (edit.planIds && edit.planIds.length > 0) await checkActivePlans(tx, edit.planIds);
    const newPoster = edit.thumbnailS3Key !== undefined && edit.thumbnailS3Key !== movie.thumbnailKey;
    const [updated] = await tx
      .update(movies)
      .set({
        title: edit.title,
        description: edit.description,
        vj: edit.vj,
        category: edit.category,
        rating: edit.rating,
        // Saving a rating (even the same one) is the admin confirming it.
        ratingConfirmed: edit.rating !== undefined ? true : undefined,
        certificateNumber: edit.certificateNumber,
        certificateDate: edit.certificateDate,
        ...(newPoster ? { thumbnailKey: edit.thumbnailS3Key, posterVariants: null } : {}),
        updatedAt: now,
      })
      .where(eq(movies.id, id))
      .returning();
    if (edit.planIds) {
      await tx.delete(moviePlans).where(eq(moviePlans.movieId, id));
      if (edit.planIds.length > 0) {
        await tx.insert(moviePlans).values(edit.planIds.map((planId) => ({ movieId: id, planId })));
      }
    }
    return {
      saved: await adminMovie(deps, tx, updated!, origin),
      replacedPosters: newPoster ? (movie.posterVariants ?? []).map((v) => v.key) : [],
    };
  });
  // The old small posters are nobody's now (the old upload itself goes with the storage cleanup's sweep).
  for (const key of replacedPosters) {
    await deps.storage.delete(key).catch((error: unknown) => {
      deps.logger.warn({ err: error, key, movieId: id }, 'could not delete a replaced poster');
    });
  }
  return saved;
}
