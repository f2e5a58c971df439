import type { DownloadSize } from '@filamu/shared';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { movies } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Catalogue } from '../catalog/catalogue.ts';
import { type Downloader, ownedBy } from '../movies/entitlement.ts';
import { fileOfSize, filesOf, type MovieFile, readyRenditionsJson, renditionsFromJson } from '../movies/files.ts';
import { liveMovie, type MovieRow } from '../movies/movie.ts';

/** What a grant reads before it takes any lock: the movie it names and the file it hands out (grants.ts). */

interface ReadDeps {
  database: Database;
  catalogue: Catalogue;
}

/** The movie a grant is for: by id, or by file key (the spec's client), with the size the client expects. */
export interface GrantRef {
  movieId?: string;
  s3Key?: string;
  totalBytes?: number;
  /** Download again a movie completed before, taking one re-download (decision 0121). */
  redownload?: boolean;
  /** Which file (decision 0126); without it an existing download keeps its size and a new one gets the original. */
  size?: DownloadSize;
}

/**
 * The live movie a grant names, by id or by its file key (the spec's client sends `s3Key`); both must agree.
 * Read from the cached catalogue when it has the movie (ids, keys and sizes never change); the transaction
 * below checks again that it is live.
 */
export async function findGrantedMovie(
  deps: ReadDeps,
  ref: GrantRef,
): Promise<{ movie: MovieRow; cachedFiles: readonly MovieFile[] | null }> {
  const snapshot = await deps.catalogue.cached();
  const cached = ref.movieId !== undefined ? snapshot.byId.get(ref.movieId) : snapshot.bySKey.get(ref.s3Key ?? '');
  const movie = cached?.row ?? (await findLiveMovie(deps, ref));
  if (!movie) throw notFound('Movie');
  if (ref.s3Key !== undefined && movie.s3Key !== ref.s3Key) {
    throw new AppError('bad_request', 'The file key does not belong to this movie.');
  }
  return { movie, cachedFiles: cached?.files ?? null };
}

/**
 * The file a grant can expect without reading the database (decision 0242): the size asked for, else the original,
 * as the cached catalogue knows it. Only a guess: the grant's locked read checks it (`fileAsCommitted`) and, when the
 * file, its size or the caller's download says otherwise, the grant starts again the long way (`chooseFile`). Null
 * when the cache has no such file (a rendition it has not seen yet) or a length other than the one the client was
 * given (the file was replaced, and this process has not heard yet): the long way at once, which decides from the
 * database whether the client is wrong.
 */
export function expectedFile(cachedFiles: readonly MovieFile[] | null, ref: GrantRef): MovieFile | null {
  const file = cachedFiles?.find((f) => f.size === (ref.size ?? 'original'));
  // 0 is how a client says it does not know the length yet.
  if (!file || (ref.totalBytes && ref.totalBytes !== file.bytes)) return null;
  return file;
}

/**
 * SQL, on `movies`: the file of `size` as committed — `[key, nonce, bytes]`, null when it is not ready — for the
 * grant's locked read to compare with `expectedFile`. The same rules as `filesOf` and `readyRenditionsJson`.
 */
export function fileAsCommitted(size: DownloadSize): SQL<unknown> {
  if (size === 'original') {
    return sql`json_build_array(coalesce("movies"."original_file_key", "movies"."s3_key"), "movies"."original_file_nonce", "movies"."size_bytes")`;
  }
  return sql`(select json_build_array(r.storage_key, r.file_nonce, r.size_bytes) from movie_renditions r where r.movie_id = "movies"."id" and r.kind = ${size} and r.state = 'ready')`;
}

/** Whether the committed file (`fileAsCommitted`'s value) is the one expected. */
export function isExpectedFile(expected: MovieFile, committed: unknown): boolean {
  const tuple = (typeof committed === 'string' ? JSON.parse(committed) : committed) as
    [string, string | null, number | string] | null;
  return (
    tuple !== null && tuple[0] === expected.key && tuple[1] === expected.nonce && Number(tuple[2]) === expected.bytes
  );
}

/**
 * The file the grant hands out (decision 0126): the size asked for, else the size of the caller's download of the
 * movie, else the original. Read before any lock (storage is asked about it before the transaction); the
 * transaction checks that the download's size did not change meanwhile. The files are read from the database, not
 * the cache: a rendition that stopped being ready is never granted, a replaced original is granted with its length. One round trip: the files, the caller's download's size and
 * what `alongside` reads.
 */
export async function chooseFile<Read>(
  deps: ReadDeps,
  caller: Downloader,
  movie: MovieRow,
  ref: GrantRef,
  alongside: SQL<Read> | undefined,
): Promise<{ chosen: MovieFile | AppError; read: Read }> {
  const [row] = await deps.database.db
    .select({
      originalKey: movies.originalFileKey,
      originalNonce: movies.originalFileNonce,
      originalBytes: movies.sizeBytes,
      renditions: readyRenditionsJson(),
      existingSize: sql<DownloadSize | null>`(select d.size from downloads d where ${ownedBy(caller, 'd')} and d.movie_id = "movies"."id")`,
      read: alongside ?? sql<Read>`null`,
    })
    .from(movies)
    .where(eq(movies.id, movie.id));
  const read = (row?.read ?? null) as Read;
  // The original as committed too: the cached row may predate its encrypted copy, which has another length.
  const original = {
    key: row?.originalKey ?? null,
    nonce: row?.originalNonce ?? null,
    bytes: row?.originalBytes ?? movie.sizeBytes,
  };
  const renditions = row ? renditionsFromJson(row.renditions) : [];
  let file: MovieFile;
  try {
    file = fileOfSize(filesOf(movie, renditions, original), ref.size ?? row?.existingSize ?? 'original');
  } catch (error) {
    // A size not ready is refused after the grant's own rules (a completed movie stays "already downloaded").
    if (error instanceof AppError) return { chosen: error, read };
    throw error;
  }
  // 0 is how a client says it does not know the size yet.
  if (ref.totalBytes && ref.totalBytes !== file.bytes) {
    throw new AppError('bad_request', `totalBytes must be the file size (${file.bytes} bytes).`);
  }
  return { chosen: file, read };
}

async function findLiveMovie(deps: ReadDeps, ref: GrantRef): Promise<MovieRow | undefined> {
  const byId = ref.movieId !== undefined ? eq(movies.id, ref.movieId) : undefined;
  const byKey = ref.s3Key !== undefined ? eq(movies.s3Key, ref.s3Key) : undefined;
  const [movie] = await deps.database.db
    .select()
    .from(movies)
    .where(and(liveMovie(), byId ?? byKey));
  return movie;
}
