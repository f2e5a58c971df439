import { RENDITION_KINDS, RENDITION_TARGETS, type RenditionKind } from '@filamu/shared';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { movieRenditions, movies } from '../../db/schema.ts';

/**
 * The rendition rows beside their pg-boss jobs (decision 0127): pg-boss decides who runs a rendition and when; the row
 * is what the admin sees, and its `attempts` is the token of the current run. A worker starting a job claims the row,
 * which bumps `attempts`; every later write (progress, ready, failed) is guarded by `state = 'encoding' and attempts =
 * <token>`, so when pg-boss lets a stalled job run twice (expiry), only the newest run can finish the rendition.
 */

/** A row `encoding` with no progress written for this long has lost its worker (progress is written every 2 s). */
const STALE_ENCODING_MS = 15_000;
/**
 * pg-boss 10 has no heartbeat, so a job whose process died would wait for its expiry (hours for a film). A row not
 * written for this long (30 missed heartbeats: generous for a loaded box) is taken back from its worker instead.
 */
const LAPSED_ENCODING_MS = 60_000;

/**
 * Why a Small-HEVC row is skipped where this server's ffmpeg lacks its encoders (decision 0251): the operator reads
 * it in the console, and the start-up backfill queues such rows again once ffmpeg has them.
 */
export const NO_SMALL_HEVC_ENCODER =
  "This server's ffmpeg cannot encode HEVC or Opus (libx265, libopus): phones get the H.264 Small.";

type PlannedRendition = { state: 'queued' | 'skipped'; error: string | null };

/**
 * Which renditions a source of `sourceHeight` gets: never upscaled, both Smalls always (decision 0124; the scale
 * filter keeps a source under 360p at its own height), the HEVC Small only where ffmpeg can make it (decision 0251).
 */
function plannedRenditions(sourceHeight: number, makesSmallHevc: boolean): Record<RenditionKind, PlannedRendition> {
  const plan = {} as Record<RenditionKind, PlannedRendition>;
  for (const kind of RENDITION_KINDS) {
    const tallEnough = kind === 'small' || kind === 'small-hevc' || RENDITION_TARGETS[kind].height <= sourceHeight;
    plan[kind] = { state: tallEnough ? 'queued' : 'skipped', error: null };
  }
  if (!makesSmallHevc) plan['small-hevc'] = { state: 'skipped', error: NO_SMALL_HEVC_ENCODER };
  return plan;
}

/** Adds a new movie's rendition rows (in the save's transaction). */
export async function planRenditions(
  tx: Executor,
  movie: { id: string; sourceHeight: number },
  encoders: { makesSmallHevc: boolean },
  now: Date,
): Promise<void> {
  const plan = plannedRenditions(movie.sourceHeight, encoders.makesSmallHevc);
  await tx
    .insert(movieRenditions)
    .values(
      RENDITION_KINDS.map((kind) => ({ movieId: movie.id, kind, ...plan[kind], createdAt: now, updatedAt: now })),
    );
}

export interface ClaimedJob {
  movieId: string;
  kind: RenditionKind;
  /** The token: this run's attempt number on the row. */
  attempt: number;
  sourceKey: string;
  durationSeconds: number | null;
}

/**
 * A job starts: its row becomes `encoding` under a new attempt, if it is queued, or encoding with a worker that
 * stopped writing (a run pg-boss expired). Otherwise why not: `done` (ready, failed, cancelled, skipped, or the movie
 * is gone: nothing to make) or `busy` (another run is live).
 */
export async function claimRendition(
  db: Db,
  target: { movieId: string; kind: RenditionKind },
  now: Date,
): Promise<ClaimedJob | 'done' | 'busy'> {
  const at = now.toISOString();
  const staleBefore = new Date(now.getTime() - STALE_ENCODING_MS).toISOString();
  const result = await db.execute(sql`
    update movie_renditions r
       set state = 'encoding', attempts = r.attempts + 1, progress = 0, eta_seconds = null, updated_at = ${at}
      from movies m
     where r.movie_id = ${target.movieId} and r.kind = ${target.kind}
       and m.id = r.movie_id and m.deleted_at is null
       and (r.state = 'queued' or (r.state = 'encoding' and r.updated_at < ${staleBefore}::timestamptz))
    returning r.attempts, m.s3_key, m.duration_seconds`);
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
  if (row) {
    return {
      ...target,
      attempt: Number(row.attempts),
      sourceKey: String(row.s3_key),
      durationSeconds: row.duration_seconds == null ? null : Number(row.duration_seconds),
    };
  }
  const [current] = await db
    .select({ state: movieRenditions.state, deletedAt: movies.deletedAt })
    .from(movieRenditions)
    .innerJoin(movies, eq(movies.id, movieRenditions.movieId))
    .where(and(eq(movieRenditions.movieId, target.movieId), eq(movieRenditions.kind, target.kind)));
  return current?.state === 'encoding' && current.deletedAt === null ? 'busy' : 'done';
}

function held(job: Pick<ClaimedJob, 'movieId' | 'kind' | 'attempt'>) {
  return and(
    eq(movieRenditions.movieId, job.movieId),
    eq(movieRenditions.kind, job.kind),
    eq(movieRenditions.state, 'encoding'),
    eq(movieRenditions.attempts, job.attempt),
  );
}

/** Progress and heartbeat; false when the job is no longer this holder's (cancelled, taken over). */
export async function reportProgress(
  db: Db,
  job: ClaimedJob,
  progress: { fraction: number; etaSeconds: number | null },
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(movieRenditions)
    .set({ progress: progress.fraction, etaSeconds: progress.etaSeconds, updatedAt: now })
    .where(held(job))
    .returning({ kind: movieRenditions.kind });
  return rows.length > 0;
}

/** Marks the rendition ready, if this holder still holds it and the movie lives; false otherwise. */
export async function markReady(
  db: Db,
  job: ClaimedJob,
  file: {
    storageKey: string;
    fileNonce: string;
    sizeBytes: number;
    width: number;
    height: number;
    bitsPerSecond: number | null;
  },
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(movieRenditions)
    .set({ state: 'ready', progress: 1, etaSeconds: null, error: null, ...file, updatedAt: now, readyAt: now })
    .where(
      and(
        held(job),
        inArray(
          movieRenditions.movieId,
          db
            .select({ id: movies.id })
            .from(movies)
            .where(and(eq(movies.id, job.movieId), isNull(movies.deletedAt))),
        ),
      ),
    )
    .returning({ kind: movieRenditions.kind });
  return rows.length > 0;
}

/** A failed attempt: `queued` while pg-boss will retry it (after its back-off), `failed` after the last one. */
export async function markFailed(
  db: Db,
  job: ClaimedJob,
  error: string,
  final: boolean,
  now: Date,
): Promise<'queued' | 'failed'> {
  const state = final ? 'failed' : 'queued';
  await db
    .update(movieRenditions)
    .set({ state, error: error.slice(0, 2000), progress: 0, etaSeconds: null, updatedAt: now })
    .where(held(job));
  return state;
}

/** Whether the rendition's row is gone from under the job for good (movie deleted or job cancelled). */
export async function isCancelled(db: Db, job: ClaimedJob): Promise<boolean> {
  const [row] = await db
    .select({ state: movieRenditions.state, deletedAt: movies.deletedAt })
    .from(movieRenditions)
    .innerJoin(movies, eq(movies.id, movieRenditions.movieId))
    .where(and(eq(movieRenditions.movieId, job.movieId), eq(movieRenditions.kind, job.kind)));
  return !row || row.state === 'cancelled' || row.deletedAt !== null;
}

/** A deleted movie's renditions (in the delete's transaction): nothing more is made or offered. */
export async function cancelRenditions(tx: Executor, movieId: string, now: Date): Promise<void> {
  await tx
    .update(movieRenditions)
    .set({ state: 'cancelled', storageKey: null, sizeBytes: null, progress: 0, etaSeconds: null, updatedAt: now })
    .where(
      and(
        eq(movieRenditions.movieId, movieId),
        inArray(movieRenditions.state, ['queued', 'encoding', 'ready', 'failed']),
      ),
    );
}

/** `failed` → queued with fresh attempts; false when the rendition is not failed (or the movie is gone). */
export async function retryFailed(tx: Executor, movieId: string, kind: RenditionKind, now: Date): Promise<boolean> {
  const rows = await tx
    .update(movieRenditions)
    .set({ state: 'queued', attempts: 0, error: null, progress: 0, etaSeconds: null, updatedAt: now })
    .where(
      and(eq(movieRenditions.movieId, movieId), eq(movieRenditions.kind, kind), eq(movieRenditions.state, 'failed')),
    )
    .returning({ kind: movieRenditions.kind });
  return rows.length > 0;
}

/** This process stops (SIGTERM): the row is queued again, its attempt not counted (the job is handed back too). */
export async function releaseJob(db: Db, job: ClaimedJob, now: Date): Promise<void> {
  await db
    .update(movieRenditions)
    .set({ state: 'queued', attempts: job.attempt - 1, progress: 0, etaSeconds: null, updatedAt: now })
    .where(held(job));
}

/**
 * Renditions whose worker stopped writing progress go back to `queued`, their attempt counted. The update is the
 * claim: of several processes sweeping at once, one gets each row, and only it fails the job (runner.ts), so a
 * lapse costs one attempt. A worker that was only slow finds its next write missing and stops its ffmpeg.
 */
export async function requeueLapsed(db: Db, now: Date): Promise<{ movieId: string; kind: RenditionKind }[]> {
  const lapsedBefore = new Date(now.getTime() - LAPSED_ENCODING_MS).toISOString();
  return db
    .update(movieRenditions)
    .set({ state: 'queued', progress: 0, etaSeconds: null, updatedAt: now })
    .where(and(eq(movieRenditions.state, 'encoding'), sql`${movieRenditions.updatedAt} < ${lapsedBefore}::timestamptz`))
    .returning({ movieId: movieRenditions.movieId, kind: movieRenditions.kind });
}

/**
 * pg-boss gave up on a job (its dead letter): a rendition still waiting or encoding under it had its last worker
 * die mid-encode, so it is failed (an admin can retry it). One the job itself marked failed is left as it is.
 */
export async function markAbandoned(db: Db, target: { movieId: string; kind: RenditionKind }, now: Date) {
  await db
    .update(movieRenditions)
    .set({
      state: 'failed',
      error: 'The encode was interrupted too many times (its server stopped or restarted mid-encode).',
      progress: 0,
      etaSeconds: null,
      updatedAt: now,
    })
    .where(
      and(
        eq(movieRenditions.movieId, target.movieId),
        eq(movieRenditions.kind, target.kind),
        inArray(movieRenditions.state, ['queued', 'encoding']),
      ),
    );
}

/** Whether this attempt still holds its rendition (encoding under that attempt number). */
export async function isHeld(db: Db, job: Pick<ClaimedJob, 'movieId' | 'kind' | 'attempt'>): Promise<boolean> {
  const rows = await db.select({ kind: movieRenditions.kind }).from(movieRenditions).where(held(job));
  return rows.length > 0;
}
