import { createReadStream } from 'node:fs';
import { rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { FILM_CHUNK_BYTES, toBase64url, type DownloadSize } from '@filamu/shared';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { movieRenditions, movies } from '../../db/schema.ts';
import type { ContentKeys } from '../content-keys/content-keys.ts';
import { encryptFilmStream, newFilmNonce } from '../content-keys/film-encryption.ts';
import { filmKey, type ObjectStorage } from '../storage/storage.ts';
import { chunkHashesOf, hasManifest, recordManifest } from '../film-transfer/manifests.ts';

/**
 * The files phones get, encrypted with their title's key (decisions 0229, 0235). New renditions are encrypted as
 * the transcoder stores them (runner.ts); this job encrypts what is still plain: a movie's original once it is saved,
 * and every file stored before encryption existed. Each file is written encrypted under a new key named after its
 * nonce, then the row is switched to it in one guarded update, then the plain object goes. A crash anywhere leaves
 * either the plain file still in use (the job runs again) or an unreferenced object (the storage cleanup removes it).
 */

export interface EncryptDeps {
  db: Db;
  storage: ObjectStorage;
  contentKeys: ContentKeys;
  logger: Logger;
  /** Where the encrypted copy is written before it is stored (the transcoder's work folder). */
  workDir: string;
  /** This process is stopping: the copy under way is dropped (the job runs again). */
  signal?: AbortSignal;
  /**
   * A work file untouched this long is taken for a dead process's and removed (runner.ts): the copy's file is
   * touched four times as often while it is stored, which may take long (a 2 GB film to S3).
   */
  staleWorkMs: number;
}

/** A presigned source link outlives the longest copy. */
const SOURCE_LINK_SECONDS = 86_400;

/** The object's bytes as a stream: its file on this machine, or its presigned link on S3. */
async function readObject(storage: ObjectStorage, key: string): Promise<NodeJS.ReadableStream> {
  const path = storage.localPath(key);
  if (path) return createReadStream(path);
  const response = await fetch(await storage.transcodeInput(key, SOURCE_LINK_SECONDS));
  if (!response.ok || !response.body) throw new Error(`reading ${key} for encryption failed: ${response.status}`);
  return Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
}

/**
 * Stores the encrypted copy of `source` (the object, or a local file) under a fresh key for `size`; returns the key,
 * the nonce and the bytes stored (the same as the plain file's: counter mode keeps the length).
 */
export async function storeEncrypted(
  deps: EncryptDeps,
  movieId: string,
  size: DownloadSize,
  source: { key: string } | { path: string },
): Promise<{ key: string; nonce: string; bytes: number }> {
  const contentKey = await deps.contentKeys.keyOf(movieId);
  const nonce = newFilmNonce();
  const key = filmKey(movieId, size, nonce);
  const work = join(deps.workDir, `encrypt-${randomUUID()}.filamu`);
  const touch = () => utimes(work, new Date(), new Date()).catch(() => undefined);
  const keepFresh = setInterval(() => void touch(), deps.staleWorkMs / 4);
  keepFresh.unref();
  try {
    const from = 'path' in source ? createReadStream(source.path) : await readObject(deps.storage, source.key);
    await encryptFilmStream(from, work, contentKey, nonce, deps.signal);
    const { size: bytes } = await stat(work);
    // Hashed before it is stored, so no phone ever holds a file without its manifest (decision 0243).
    const hashed = await chunkHashesOf(createReadStream(work, { highWaterMark: FILM_CHUNK_BYTES }));
    await recordManifest(deps.db, { objectKey: key, movieId, ...hashed });
    await deps.storage.moveFileIn(key, work, 'application/octet-stream');
    return { key, nonce: toBase64url(nonce), bytes };
  } finally {
    clearInterval(keepFresh);
    await rm(work, { force: true });
  }
}

/** What one run of the job did for a movie. */
export interface EncryptedFiles {
  original: boolean;
  renditions: number;
}

/** Encrypts every file of the movie still stored plain; a deleted movie, or one already done, costs two reads. */
export async function encryptMovieFiles(deps: EncryptDeps, movieId: string): Promise<EncryptedFiles> {
  const done: EncryptedFiles = { original: false, renditions: 0 };
  const [movie] = await deps.db
    .select({ s3Key: movies.s3Key, originalFileKey: movies.originalFileKey })
    .from(movies)
    .where(and(eq(movies.id, movieId), isNull(movies.deletedAt)));
  if (!movie) return done;
  if (!movie.originalFileKey) {
    const stored = await storeEncrypted(deps, movieId, 'original', { key: movie.s3Key });
    // The upload stays (the transcoder's source, never linked to a phone again): only the row moves.
    const switched = await deps.db
      .update(movies)
      .set({ originalFileKey: stored.key, originalFileNonce: stored.nonce })
      .where(and(eq(movies.id, movieId), isNull(movies.originalFileKey), isNull(movies.deletedAt)))
      .returning({ id: movies.id });
    if (switched.length > 0) done.original = true;
    else await deps.storage.delete(stored.key);
  }
  const plain = await deps.db
    .select({ kind: movieRenditions.kind, storageKey: movieRenditions.storageKey })
    .from(movieRenditions)
    .where(
      and(
        eq(movieRenditions.movieId, movieId),
        eq(movieRenditions.state, 'ready'),
        isNull(movieRenditions.fileNonce),
        isNotNull(movieRenditions.storageKey),
      ),
    );
  for (const rendition of plain) {
    const oldKey = rendition.storageKey!;
    const stored = await storeEncrypted(deps, movieId, rendition.kind, { key: oldKey });
    const switched = await deps.db
      .update(movieRenditions)
      .set({ storageKey: stored.key, fileNonce: stored.nonce, sizeBytes: stored.bytes, updatedAt: sql`now()` })
      .where(
        and(
          eq(movieRenditions.movieId, movieId),
          eq(movieRenditions.kind, rendition.kind),
          eq(movieRenditions.state, 'ready'),
          eq(movieRenditions.storageKey, oldKey),
          isNull(movieRenditions.fileNonce),
        ),
      )
      .returning({ kind: movieRenditions.kind });
    // A link to the plain file dies with it (its key no longer names the download's file); the phone asks again.
    if (switched.length > 0) {
      done.renditions += 1;
      await deps.storage.delete(oldKey);
    } else {
      await deps.storage.delete(stored.key);
    }
  }
  if (done.original || done.renditions > 0) deps.logger.info({ movieId, ...done }, 'film files encrypted');
  await hashUnhashedFiles(deps, movieId);
  return done;
}

/**
 * Files encrypted before manifests existed (decision 0243) are hashed once, read back from storage: a phone holding
 * one can then send it. A file replaced meanwhile is hashed all the same (its row is the phone's, not the catalogue's).
 */
async function hashUnhashedFiles(deps: EncryptDeps, movieId: string): Promise<void> {
  const keys = await deps.db.execute(sql`
    select m.original_file_key as key from movies m
     where m.id = ${movieId} and m.deleted_at is null and m.original_file_key is not null
    union all
    select r.storage_key as key from movie_renditions r
     where r.movie_id = ${movieId} and r.state = 'ready' and r.file_nonce is not null and r.storage_key is not null`);
  for (const { key } of (keys as unknown as { rows: { key: string }[] }).rows) {
    if (await hasManifest(deps.db, key)) continue;
    const hashed = await chunkHashesOf((await readObject(deps.storage, key)) as AsyncIterable<Uint8Array>);
    await recordManifest(deps.db, { objectKey: key, movieId, ...hashed });
    deps.logger.info({ movieId, key, bytes: hashed.bytes }, 'film file hashed for its manifest');
  }
}

/** Movies with a file still plain, or encrypted without its manifest: the job's backlog (sent again at start), and its progress for the admin. */
export async function moviesWithPlainFiles(db: Db): Promise<string[]> {
  const rows = await db.execute(sql`
    select m.id from movies m
     where m.deleted_at is null
       and (m.original_file_key is null
            or exists (select 1 from movie_renditions r
                        where r.movie_id = m.id and r.state = 'ready' and r.file_nonce is null)
            or not exists (select 1 from film_manifests f where f.object_key = m.original_file_key)
            or exists (select 1 from movie_renditions r
                        where r.movie_id = m.id and r.state = 'ready' and r.file_nonce is not null
                          and not exists (select 1 from film_manifests f where f.object_key = r.storage_key)))`);
  return (rows as unknown as { rows: { id: string }[] }).rows.map((row) => String(row.id));
}

/** How many of the files phones can get are encrypted, and how many still wait (the Movies tab's progress). */
export async function encryptionProgress(db: Db): Promise<{ encrypted: number; plain: number }> {
  const rows = await db.execute(sql`
    select
      (select count(*) from movies where deleted_at is null and original_file_key is not null)
        + (select count(*) from movie_renditions r join movies m on m.id = r.movie_id and m.deleted_at is null
            where r.state = 'ready' and r.file_nonce is not null) as encrypted,
      (select count(*) from movies where deleted_at is null and original_file_key is null)
        + (select count(*) from movie_renditions r join movies m on m.id = r.movie_id and m.deleted_at is null
            where r.state = 'ready' and r.file_nonce is null) as plain`);
  const row = (rows as unknown as { rows: { encrypted: unknown; plain: unknown }[] }).rows[0];
  return { encrypted: Number(row?.encrypted ?? 0), plain: Number(row?.plain ?? 0) };
}
