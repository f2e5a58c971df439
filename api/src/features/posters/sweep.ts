import { and, asc, eq, isNull } from 'drizzle-orm';
import { claimJobRun, finishJobRun } from '../../db/job-runs.ts';
import { movies } from '../../db/schema.ts';
import { startIntervalJob } from '../../lib/interval-job.ts';
import { posterKey, type ObjectStorage } from '../storage/storage.ts';
import { ffmpegAvailable } from './ffmpeg.ts';
import { makePosters, NoFrameError, type PosterSource, posterFrameSeconds } from './make.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Database } from '../../db/client.ts';
import type { Logger } from 'pino';

/**
 * The poster sweep (decision 0143): every movie saved without poster variants gets them here, never in the admin's
 * save. Durable without a queue: the work left is simply the live movies whose `poster_variants` is still null, so a
 * restart or a crash mid-pass loses nothing. One replica runs each pass (db/job-runs.ts, decision 0084).
 */

const POSTER_SWEEP_JOB = 'poster-sweep';
export const POSTER_SWEEP_INTERVAL_MS = 30_000;
/** A pass makes at most this many movies' posters (about half a second each from a picture)… */
const MOVIES_PER_PASS = 20;
/** …and starts no new one past this share of its period, so it ends before another replica's pass may begin. */
const PASS_BUDGET_SHARE = 0.5;
/** A movie whose poster could not be made (a broken picture, storage down) is tried again this much later. */
const RETRY_AFTER_MS = 3_600_000;
/** How long ffmpeg may use a presigned link to the source (S3). */
const SOURCE_LINK_SECONDS = 600;

interface PosterDeps {
  database: Database;
  storage: ObjectStorage;
  clock: Clock;
  logger: Logger;
}

interface PosterSweepReport {
  made: number;
  failed: number;
}

interface Candidate {
  id: string;
  s3Key: string;
  thumbnailKey: string | null;
  durationSeconds: number | null;
}

export interface PosterSweep {
  /** One pass, if ffmpeg is here and this caller claims the period; null otherwise. */
  run(): Promise<PosterSweepReport | null>;
}

export function createPosterSweep(deps: PosterDeps, intervalMs = POSTER_SWEEP_INTERVAL_MS): PosterSweep {
  /** Movies that failed, and when they may be tried again (this process only: a restart tries them once more). */
  const retryAt = new Map<string, number>();
  let toldMissing = false;

  async function source(movie: Candidate): Promise<PosterSource> {
    const key = movie.thumbnailKey ?? movie.s3Key;
    const input =
      deps.storage.localPath(key) ?? (await deps.storage.presignGet(key, { expiresInSeconds: SOURCE_LINK_SECONDS }));
    return movie.thumbnailKey
      ? { kind: 'image', input }
      : { kind: 'video', input, seekSeconds: posterFrameSeconds(movie.durationSeconds) };
  }

  async function makeFor(movie: Candidate): Promise<void> {
    const from = await source(movie);
    const posters = await makePosters(from).catch((error: unknown) => {
      // A video shorter than the seek (its duration not probed): its first frame then.
      if (error instanceof NoFrameError && from.kind === 'video' && from.seekSeconds > 0) {
        return makePosters({ ...from, seekSeconds: 0 });
      }
      throw error;
    });
    const variants = posters.map(({ width }) => ({ width, key: posterKey(movie.id, width, movie.thumbnailKey) }));
    for (const [i, { body }] of posters.entries()) {
      const key = variants[i]!.key;
      // Left by a pass that died before recording them: objects are never overwritten, so it goes first.
      await deps.storage.delete(key);
      await deps.storage.put(key, body, 'image/webp');
    }
    const recorded = await deps.database.db
      .update(movies)
      .set({ posterVariants: variants })
      .where(
        and(
          eq(movies.id, movie.id),
          isNull(movies.deletedAt),
          isNull(movies.posterVariants),
          // A poster replaced meanwhile (an edit) is made again from the new one on the next pass.
          movie.thumbnailKey ? eq(movies.thumbnailKey, movie.thumbnailKey) : isNull(movies.thumbnailKey),
        ),
      )
      .returning({ id: movies.id });
    // Deleted or given another poster meanwhile: its delete may have run before these objects existed.
    if (recorded.length === 0) for (const { key } of variants) await deps.storage.delete(key);
  }

  return {
    async run() {
      if (!(await ffmpegAvailable())) {
        if (!toldMissing) {
          toldMissing = true;
          deps.logger.warn('ffmpeg is not installed: no small posters are made (cards load the full thumbnail)');
        }
        return null;
      }
      const db = deps.database.db;
      if (!(await claimJobRun(db, POSTER_SWEEP_JOB, deps.clock.now(), intervalMs))) return null;
      const now = deps.clock.now().getTime();
      const waiting = await db
        .select({
          id: movies.id,
          s3Key: movies.s3Key,
          thumbnailKey: movies.thumbnailKey,
          durationSeconds: movies.durationSeconds,
        })
        .from(movies)
        .where(and(isNull(movies.deletedAt), isNull(movies.posterVariants)))
        .orderBy(asc(movies.createdAt), asc(movies.id))
        .limit(MOVIES_PER_PASS + retryAt.size);
      const report: PosterSweepReport = { made: 0, failed: 0 };
      const started = performance.now();
      for (const movie of waiting.filter((m) => (retryAt.get(m.id) ?? 0) <= now).slice(0, MOVIES_PER_PASS)) {
        // Wall time, not the injected clock: this bounds how long the pass really runs.
        if (performance.now() - started > intervalMs * PASS_BUDGET_SHARE) break;
        try {
          await makeFor(movie);
          retryAt.delete(movie.id);
          report.made += 1;
        } catch (error) {
          retryAt.set(movie.id, now + RETRY_AFTER_MS);
          report.failed += 1;
          deps.logger.warn({ err: error, movieId: movie.id }, 'could not make a movie’s posters; trying again later');
        }
      }
      await finishJobRun(db, POSTER_SWEEP_JOB, deps.clock.now(), report);
      if (report.made + report.failed > 0) deps.logger.info({ job: POSTER_SWEEP_JOB, ...report }, 'poster sweep pass');
      return report;
    },
  };
}

/** Starts the sweep: a first pass soon after start, then one every `intervalMs`; `intervalMs <= 0` runs nothing. */
export function startPosterSweep(deps: PosterDeps, intervalMs = POSTER_SWEEP_INTERVAL_MS): () => Promise<void> {
  const sweep = createPosterSweep(deps, intervalMs);
  return startIntervalJob(
    () => sweep.run(),
    intervalMs,
    (error) => deps.logger.error({ err: error }, 'poster sweep pass failed'),
    { firstRunAfterMs: Math.min(5_000, intervalMs) },
  );
}
