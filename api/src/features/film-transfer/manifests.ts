import { createHash, type Hash } from 'node:crypto';
import {
  type DownloadSize,
  FILM_CHUNK_BYTES,
  FilmManifestClaims,
  type FilmManifestQuery,
  type FilmManifestResponse,
  fromBase64url,
} from '@filamu/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { downloads, filmManifests, movies } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { LicenceSigner } from '../licences/signing.ts';
import { type Downloader, ownDownloads } from '../movies/entitlement.ts';
import { filmKey } from '../storage/storage.ts';

/**
 * Every encrypted film file's manifest (decision 0243): the SHA-256 of each 1 MiB chunk, hashed once when the file is
 * stored and signed on request with the film's facts, so a phone that got the film from another phone can check every
 * chunk it receives and the server can tell its own file from anything else.
 */

export interface ChunkHashes {
  bytes: number;
  /** Every chunk's digest, one after another, in base64url: the manifest's `hashes`. */
  hashes: string;
}

/** Hashes a film's bytes in 1 MiB chunks, whatever sizes the stream's pieces come in. */
export async function chunkHashesOf(source: AsyncIterable<Uint8Array>): Promise<ChunkHashes> {
  const digests: Buffer[] = [];
  let hash: Hash = createHash('sha256');
  let inChunk = 0;
  let bytes = 0;
  for await (const piece of source) {
    let at = 0;
    while (at < piece.length) {
      const take = Math.min(FILM_CHUNK_BYTES - inChunk, piece.length - at);
      hash.update(piece.subarray(at, at + take));
      inChunk += take;
      at += take;
      if (inChunk === FILM_CHUNK_BYTES) {
        digests.push(hash.digest());
        hash = createHash('sha256');
        inChunk = 0;
      }
    }
    bytes += piece.length;
  }
  if (inChunk > 0) digests.push(hash.digest());
  return { bytes, hashes: Buffer.concat(digests).toString('base64url') };
}

/** Keeps a stored file's chunk hashes (a second write of the same key is the same file: nothing changes). */
export async function recordManifest(
  exec: Executor,
  file: { objectKey: string; movieId: string } & ChunkHashes,
): Promise<void> {
  await exec.insert(filmManifests).values(file).onConflictDoNothing();
}

/** Whether a stored file has its chunk hashes (the encryption job hashes the files stored before manifests). */
export async function hasManifest(exec: Executor, objectKey: string): Promise<boolean> {
  const [row] = await exec
    .select({ key: filmManifests.objectKey })
    .from(filmManifests)
    .where(eq(filmManifests.objectKey, objectKey));
  return row !== undefined;
}

export interface ManifestDeps {
  db: Db;
  clock: Clock;
  licenceSigner: LicenceSigner;
}

const NOT_READY =
  'This film is still being prepared for sending. Try again in a few minutes, or download it again to send it.';

/**
 * The signed manifest of the file the caller holds — the size and nonce their phone names — for a film they
 * downloaded (any state: a film is kept with its manifest as soon as it starts). A file re-encoded since keeps its
 * manifest: the bytes the phone holds are still Filamu's, under the same title key.
 */
export async function manifestOf(
  deps: ManifestDeps,
  downloader: Downloader,
  movieId: string,
  file: FilmManifestQuery,
): Promise<FilmManifestResponse> {
  const objectKey = filmKey(movieId, file.size, fromBase64url(file.nonce));
  const [row] = await deps.db
    .select({
      title: movies.title,
      category: movies.category,
      vj: movies.vj,
      rating: movies.rating,
      bytes: filmManifests.bytes,
      hashes: filmManifests.hashes,
      downloaded: downloads.id,
    })
    .from(movies)
    .leftJoin(downloads, and(eq(downloads.movieId, movies.id), ownDownloads(downloader)))
    .leftJoin(filmManifests, and(eq(filmManifests.movieId, movies.id), eq(filmManifests.objectKey, objectKey)))
    .where(and(eq(movies.id, movieId), isNull(movies.deletedAt)));
  // A film the caller never downloaded is not theirs to send: answered as if it did not exist.
  if (!row?.downloaded) throw notFound('Movie');
  if (row.bytes === null || row.hashes === null) throw new AppError('conflict', NOT_READY);
  const claims = FilmManifestClaims.parse({
    v: 1,
    mid: movieId,
    title: row.title,
    category: row.category,
    vj: row.vj,
    rating: row.rating,
    size: file.size satisfies DownloadSize,
    nonce: file.nonce,
    bytes: row.bytes,
    chunk: FILM_CHUNK_BYTES,
    hashes: row.hashes,
    iat: Math.floor(deps.clock.now().getTime() / 1000),
    ...(downloader.kind === 'agent' ? { agent: downloader.id } : {}),
  });
  return { manifest: await deps.licenceSigner.sign(claims) };
}

const NOT_FILAMUS = 'This film file was not made by Filamu, or it was changed on the way. Ask the sender for it again.';

/** The claims of a manifest this server signed; anything else is refused with a clear error. */
export async function verifiedManifest(signer: LicenceSigner, token: string): Promise<FilmManifestClaims> {
  const parsed = FilmManifestClaims.safeParse(await signer.verify(token));
  if (!parsed.success) throw new AppError('bad_request', NOT_FILAMUS);
  return parsed.data;
}
