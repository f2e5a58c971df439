import type { RenditionKind } from '@filamu/shared';
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Executor, Database } from '../../db/client.ts';
import { claimJobRun, finishJobRun } from '../../db/job-runs.ts';
import { movieRenditions, movies } from '../../db/schema.ts';
import { startIntervalJob } from '../../lib/interval-job.ts';
import { lockObjectKeys } from './key-locks.ts';
import {
  type AbandonedUploadCutoffs,
  posterMovieId,
  type Removed,
  renditionKey,
  type StoredFolder,
  type ObjectStorage,
} from './storage.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Logger } from 'pino';

/**
 * The storage cleanup job (docs/decisions/0083-storage-debris.md): removes what crashed, cut or abandoned uploads
 * leave behind, and objects no movie references. One replica runs each pass (db/job-runs.ts, decision 0084).
 */

export const STORAGE_CLEANUP_JOB = 'storage-cleanup';
/** The log line of every pass that ran (with the report's figures; never keys' contents or secrets). */
export const STORAGE_CLEANUP_LOG = 'storage cleanup pass';
/**
 * A temp file is age-checked by its last write. While its request lasts it is written to at least every
 * `HTTP_IDLE_TIMEOUT_MS` (2 min) or the connection is closed, so a file silent for the link's life plus an hour can
 * only belong to a crashed or cut upload.
 */
export const TEMP_FILE_MARGIN_MS = 3_600_000;
/** The first pass comes this soon after start, so a restarted server clears its crash debris without waiting. */
const FIRST_PASS_DELAY_MS = 5_000;

// Renditions too: a deleted movie's that a failed delete left, or one a stopped encode put up after the delete.
const FOLDERS: StoredFolder[] = ['movies', 'thumbnails', 'posters', 'renditions'];
/** Rendition states whose object is (or is about to be) in use. */
const LIVE_RENDITION_STATES = ['queued', 'encoding', 'ready'] as const;

interface CleanupDeps {
  database: Database;
  storage: ObjectStorage;
  config: Config;
  clock: Clock;
  logger: Logger;
}

export interface StorageCleanupReport {
  /** Local `.uploads/*.part` files of cut or crashed uploads. */
  tempFiles: Removed;
  /** Local staging folders or S3 multipart uploads past their life (S3 bytes unknown: 0). */
  multipartUploads: Removed;
  /** Movie, thumbnail and poster objects no live movie references, older than the orphan age. */
  orphanObjects: Removed;
  /** Steps or objects that failed (each logged); the next pass tries again. */
  failures: number;
}

interface CleanupCutoffs extends AbandonedUploadCutoffs {
  orphansBefore: Date;
}

function cleanupCutoffs(config: CleanupDeps['config'], now: Date): CleanupCutoffs {
  const { uploadUrlTtlSeconds, cleanup } = config.storage;
  const at = (ms: number) => new Date(now.getTime() - ms);
  return {
    tempFilesBefore: at(uploadUrlTtlSeconds * 1000 + TEMP_FILE_MARGIN_MS),
    multipartBefore: at(cleanup.multipartMaxAgeMs),
    // On S3 a multipart object's Last-Modified is when its upload started, which can be a whole upload life before
    // it became an object an admin could save (decision 0085).
    orphansBefore: at(cleanup.orphanAgeMs + (config.storage.driver === 's3' ? cleanup.multipartMaxAgeMs : 0)),
  };
}

/**
 * One pass, if this caller claims it: null when another replica (or this one) already ran the current period.
 * Each step runs even when another failed.
 */
export async function runStorageCleanup(deps: CleanupDeps): Promise<StorageCleanupReport | null> {
  const db = deps.database.db;
  const now = deps.clock.now();
  if (!(await claimJobRun(db, STORAGE_CLEANUP_JOB, now, deps.config.storage.cleanup.intervalMs))) return null;
  const cutoffs = cleanupCutoffs(deps.config, now);
  const empty = (): Removed => ({ count: 0, bytes: 0 });
  const report: StorageCleanupReport = {
    tempFiles: empty(),
    multipartUploads: empty(),
    orphanObjects: empty(),
    failures: 0,
  };
  try {
    const abandoned = await deps.storage.removeAbandonedUploads(cutoffs);
    report.tempFiles = abandoned.tempFiles;
    report.multipartUploads = abandoned.multipartUploads;
  } catch (error) {
    report.failures += 1;
    deps.logger.error({ err: error }, 'storage cleanup: removing abandoned uploads failed');
  }
  try {
    await removeOrphans(deps, cutoffs.orphansBefore, report);
  } catch (error) {
    report.failures += 1;
    deps.logger.error({ err: error }, 'storage cleanup: listing objects failed');
  }
  await finishJobRun(db, STORAGE_CLEANUP_JOB, deps.clock.now(), report);
  deps.logger.info({ job: STORAGE_CLEANUP_JOB, ...report }, STORAGE_CLEANUP_LOG);
  return report;
}

/**
 * Keys live movies reference (a deleted movie's files were meant to go with it; leftovers of a failed delete go).
 * A poster belongs to its movie by the id in its key (`posters/<movieId>/…`), recorded yet or not: the poster sweep
 * stores the objects before it records them.
 */
async function referencedKeys(deps: CleanupDeps): Promise<{ keys: Set<string>; movieIds: Set<string> }> {
  const rows = await deps.database.db
    .select({
      id: movies.id,
      file: movies.s3Key,
      thumbnail: movies.thumbnailKey,
      encryptedOriginal: movies.originalFileKey,
    })
    .from(movies)
    .where(isNull(movies.deletedAt));
  const renditions = await liveRenditions(deps.database.db);
  return {
    keys: new Set([
      ...rows.flatMap((row) => [row.file, row.thumbnail, row.encryptedOriginal].filter((key) => key !== null)),
      ...renditions.flatMap((r) => renditionKeysOf(r)),
    ]),
    movieIds: new Set(rows.map((row) => row.id)),
  };
}

function isReferenced(referenced: { keys: Set<string>; movieIds: Set<string> }, key: string): boolean {
  const movieId = posterMovieId(key);
  return movieId ? referenced.movieIds.has(movieId) : referenced.keys.has(key);
}

/** A rendition's keys in use: where it is stored (encrypted, decision 0235) and the plain key it was made under. */
function renditionKeysOf(r: { movieId: string; kind: RenditionKind; storageKey: string | null }) {
  const plain = renditionKey(r.movieId, r.kind);
  return r.storageKey && r.storageKey !== plain ? [plain, r.storageKey] : [plain];
}

/** Renditions of live movies that are ready or being made (their key is in use or about to be). */
function liveRenditions(exec: Executor, key?: string) {
  return exec
    .select({ movieId: movieRenditions.movieId, kind: movieRenditions.kind, storageKey: movieRenditions.storageKey })
    .from(movieRenditions)
    .innerJoin(movies, eq(movies.id, movieRenditions.movieId))
    .where(
      and(
        isNull(movies.deletedAt),
        inArray(movieRenditions.state, [...LIVE_RENDITION_STATES]),
        key === undefined ? undefined : eq(movieRenditions.movieId, key.split('/')[1] ?? ''),
      ),
    );
}

async function removeOrphans(deps: CleanupDeps, before: Date, report: StorageCleanupReport): Promise<void> {
  const referenced = await referencedKeys(deps);
  for (const folder of FOLDERS) {
    for (const object of await deps.storage.list(folder)) {
      if (object.lastModified.getTime() >= before.getTime() || isReferenced(referenced, object.key)) continue;
      try {
        if (!(await deleteIfUnreferenced(deps, object.key))) continue;
        report.orphanObjects.count += 1;
        report.orphanObjects.bytes += object.size;
        deps.logger.info(
          { key: object.key, bytes: object.size, lastModified: object.lastModified.toISOString() },
          'storage cleanup: removed an object no movie references',
        );
      } catch (error) {
        report.failures += 1;
        deps.logger.warn({ err: error, key: object.key }, 'storage cleanup: could not remove an orphan object');
      }
    }
  }
}

/**
 * Deletes the object only if no live movie references it, checked and deleted under the key's lock: a movie saved
 * meanwhile either committed first (so it is seen here and the object stays) or waits and then finds no file
 * (and the admin is asked to upload again). Never a movie pointing at a deleted file (decision 0085).
 */
async function deleteIfUnreferenced(deps: CleanupDeps, key: string): Promise<boolean> {
  return deps.database.db.transaction(async (tx) => {
    await lockObjectKeys(tx, [key]);
    const movieId = posterMovieId(key);
    const [reference] = await tx
      .select({ id: movies.id })
      .from(movies)
      .where(
        and(
          isNull(movies.deletedAt),
          movieId
            ? eq(movies.id, movieId)
            : or(eq(movies.s3Key, key), eq(movies.thumbnailKey, key), eq(movies.originalFileKey, key)),
        ),
      )
      .limit(1);
    if (reference) return false;
    if (key.startsWith('renditions/')) {
      const renditions = await liveRenditions(tx, key);
      if (renditions.some((r) => renditionKeysOf(r).includes(key))) return false;
    }
    await deps.storage.delete(key);
    return true;
  });
}

/**
 * Starts the job: a first pass shortly after start (a restarted server clears its crash debris), then one every
 * `intervalMs`; several replicas share each period's pass. `intervalMs <= 0` runs nothing.
 */
export function startStorageCleanup(
  deps: CleanupDeps,
  intervalMs: number,
  options: { firstPassAfterMs?: number } = {},
): () => Promise<void> {
  return startIntervalJob(
    () => runStorageCleanup(deps),
    intervalMs,
    (error) => deps.logger.error({ err: error }, 'storage cleanup pass failed'),
    { firstRunAfterMs: Math.min(options.firstPassAfterMs ?? FIRST_PASS_DELAY_MS, intervalMs) },
  );
}
