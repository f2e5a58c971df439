import { RENDITION_KINDS, RENDITION_TARGETS, type RenditionKind } from '@filamu/shared';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { movieRenditions, movies } from '../../db/schema.ts';

/**
 * The rendition jobs live in `movie_renditions` itself (decision 0127): a row is both the state the admin sees and
 * the job. A process claims a row with `FOR UPDATE SKIP LOCKED`, which bumps `attempts`; that number is its lease
 * token. Every later write (progress, ready, failed) is guarded by `state = 'encoding' and attempts = <token>`, so
 * only the holder of the current attempt can finish a rendition, and a job silent past the lease (a killed process)
 * is claimed again by anyone, with a new token that makes the old holder's writes miss.
 */

export type RenditionRow = typeof movieRenditions.$inferSelect;

/** Attempts before a rendition is `failed` for good (an admin can retry it). */
export const MAX_ATTEMPTS = 3;
/** Back-off before attempt n+1: 15 s, 30 s, 60 s… capped at 10 minutes. */
const BACKOFF_SQL = sql`make_interval(secs => case when c.attempts = 0 then 0 else least(600, 15 * power(2, c.attempts - 1)) end)`;

/** Which renditions a source of `sourceHeight` gets: never upscaled, Small always (decision 0124). */
export function plannedStates(sourceHeight: number): Record<RenditionKind, 'queued' | 'skipped'> {
  const plan = {} as Record<RenditionKind, 'queued' | 'skipped'>;
  for (const kind of RENDITION_KINDS) {
    plan[kind] = kind === 'small' || RENDITION_TARGETS[kind].height <= sourceHeight ? 'queued' : 'skipped';
  }
  return plan;
}

/** Adds a new movie's rendition rows (in the save's transaction). */
export async function planRenditions(tx: Executor, movieId: string, sourceHeight: number, now: Date): Promise<void> {
  const plan = plannedStates(sourceHeight);
  await tx
    .insert(movieRenditions)
    .values(RENDITION_KINDS.map((kind) => ({ movieId, kind, state: plan[kind], createdAt: now, updatedAt: now })));
}

export interface ClaimedJob {
  movieId: string;
  kind: RenditionKind;
  /** The lease token: this claim's attempt number. */
  attempt: number;
  sourceKey: string;
}

/**
 * Claims the oldest rendition that is due: queued (past its back-off) or encoding with a lapsed lease. Null when
 * there is none.
 */
export async function claimNext(db: Db, now: Date, leaseMs: number): Promise<ClaimedJob | null> {
  const at = now.toISOString();
  const leaseCutoff = new Date(now.getTime() - leaseMs).toISOString();
  const result = await db.execute(sql`
    update movie_renditions r
       set state = 'encoding', attempts = r.attempts + 1, progress = 0, eta_seconds = null, updated_at = ${at}
      from (
        select c.movie_id, c.kind, m.s3_key
          from movie_renditions c
          join movies m on m.id = c.movie_id and m.deleted_at is null
         where (c.state = 'queued' and c.updated_at <= ${at}::timestamptz - ${BACKOFF_SQL})
            or (c.state = 'encoding' and c.updated_at < ${leaseCutoff}::timestamptz)
         order by c.created_at, c.kind
         limit 1
           for update of c skip locked
      ) pick
     where r.movie_id = pick.movie_id and r.kind = pick.kind
    returning r.movie_id, r.kind, r.attempts, pick.s3_key`);
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
  if (!row) return null;
  return {
    movieId: String(row.movie_id),
    kind: row.kind as RenditionKind,
    attempt: Number(row.attempts),
    sourceKey: String(row.s3_key),
  };
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
  file: { storageKey: string; sizeBytes: number; width: number; height: number; bitsPerSecond: number | null },
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

/** A failed attempt: queued again after a back-off, or `failed` once out of attempts. */
export async function markFailed(db: Db, job: ClaimedJob, error: string, now: Date): Promise<'queued' | 'failed'> {
  const state = job.attempt >= MAX_ATTEMPTS ? 'failed' : 'queued';
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

/** This process stops (SIGTERM): the job goes back to the queue at once, its attempt not counted. */
export async function releaseJob(db: Db, job: ClaimedJob, now: Date): Promise<void> {
  await db
    .update(movieRenditions)
    .set({ state: 'queued', attempts: job.attempt - 1, progress: 0, etaSeconds: null, updatedAt: now })
    .where(held(job));
}

/** Whether this attempt still holds its rendition (encoding under that attempt number). */
export async function isHeld(db: Db, job: Pick<ClaimedJob, 'movieId' | 'kind' | 'attempt'>): Promise<boolean> {
  const rows = await db.select({ kind: movieRenditions.kind }).from(movieRenditions).where(held(job));
  return rows.length > 0;
}
