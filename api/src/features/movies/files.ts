import { DOWNLOAD_SIZE_LABELS, DOWNLOAD_SIZES, type DownloadSize, type MovieSize } from '@filamu/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { downloads, movieRenditions, movies } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { MovieRow } from './movie.ts';

/**
 * The files a movie can be downloaded as (decision 0126): its ready renditions and the original upload. A download
 * fetches exactly one of them, named by `downloads.size`; every check on its links, its bytes and its completion
 * is about that file.
 */

export interface MovieFile {
  size: DownloadSize;
  key: string;
  bytes: number;
  height: number | null;
  /** The file's nonce when it is stored encrypted (decision 0235); null for a file still plain. */
  nonce: string | null;
}

/** A ready rendition as read from `movie_renditions`. */
export interface ReadyRendition extends MovieFile {
  movieId: string;
}

/** The ready renditions of these movies (a ready row always names a whole file: migration 0011's check). */
export async function readyRenditionsOf(exec: Executor, movieIds?: string[]): Promise<ReadyRendition[]> {
  if (movieIds?.length === 0) return [];
  const rows = await exec
    .select({
      movieId: movieRenditions.movieId,
      size: movieRenditions.kind,
      key: movieRenditions.storageKey,
      bytes: movieRenditions.sizeBytes,
      height: movieRenditions.height,
      nonce: movieRenditions.fileNonce,
    })
    .from(movieRenditions)
    .where(
      and(
        eq(movieRenditions.state, 'ready'),
        movieIds === undefined ? undefined : inArray(movieRenditions.movieId, movieIds),
      ),
    );
  return rows.map((r) => ({ ...r, key: r.key!, bytes: r.bytes! }));
}

/**
 * Every file of a movie, smallest rendition first, the original last (what `sizes` lists). The original phones get is
 * its encrypted copy once made (decision 0235), the upload until then; `original` is read fresh by a grant (the
 * catalogue's cached row may predate the copy).
 */
export function filesOf(
  movie: MovieRow,
  renditions: readonly MovieFile[],
  original: { key: string | null; nonce: string | null; bytes: number } = {
    key: movie.originalFileKey,
    nonce: movie.originalFileNonce,
    bytes: movie.sizeBytes,
  },
): MovieFile[] {
  const ready = renditions
    .map(({ size, key, bytes, height, nonce }) => ({ size, key, bytes, height, nonce }))
    .sort((a, b) => a.bytes - b.bytes || DOWNLOAD_SIZES.indexOf(a.size) - DOWNLOAD_SIZES.indexOf(b.size));
  const originalFile: MovieFile = original.key
    ? { size: 'original', key: original.key, bytes: original.bytes, height: movie.height, nonce: original.nonce }
    : { size: 'original', key: movie.s3Key, bytes: original.bytes, height: movie.height, nonce: null };
  return [...ready, originalFile];
}

export const sizesOf = (files: readonly MovieFile[]): MovieSize[] =>
  files.map(({ size, bytes, height }) => ({ size, bytes, height }));

/** The file of `size`, or a 409 naming the sizes that are ready (a rendition still encoding, failed or skipped). */
export function fileOfSize(files: readonly MovieFile[], size: DownloadSize): MovieFile {
  const file = files.find((f) => f.size === size);
  if (file) return file;
  // Both Smalls read "Small": named once.
  const ready = [...new Set(files.map((f) => DOWNLOAD_SIZE_LABELS[f.size]))].join(', ');
  throw new AppError(
    'conflict',
    `${DOWNLOAD_SIZE_LABELS[size]} is not ready for this movie yet. Sizes you can download now: ${ready}.`,
  );
}

/**
 * SQL, on `movies`: the movie's ready renditions as a JSON array of [kind, key, bytes, height, nonce], for a read that
 * wants them in the same round trip as other facts of the movie (a grant); `renditionsFromJson` reads it.
 */
// Written out with an alias: drizzle renders a column of a one-table select unqualified, and `"id"` here would be the
// rendition's own.
export const readyRenditionsJson = (): SQL<unknown> =>
  sql`coalesce((select json_agg(json_build_array(r.kind, r.storage_key, r.size_bytes, r.height, r.file_nonce)) from movie_renditions r where r.movie_id = "movies"."id" and r.state = 'ready'), '[]')`;

type RenditionTuple = [MovieFile['size'], string, number | string, number | null, string | null];

export function renditionsFromJson(value: unknown): MovieFile[] {
  // Postgres drivers hand json back parsed, PGlite too; a text value is parsed here (a driver set to leave it raw).
  const tuples = (typeof value === 'string' ? JSON.parse(value) : value) as RenditionTuple[];
  return tuples.map(([size, key, bytes, height, nonce]) => ({ size, key, bytes: Number(bytes), height, nonce }));
}

/**
 * SQL: the storage key of the file a download fetches (its movie's original, or its size's rendition while that is
 * ready; null otherwise, so a link of a rendition that stopped being ready dies). Needs `downloads` and `movies`.
 */
export const downloadFileKey = (): SQL<string | null> =>
  sql<
    string | null
  >`case when ${downloads.size} = 'original' then coalesce(${movies.originalFileKey}, ${movies.s3Key}) else (select ${movieRenditions.storageKey} from ${movieRenditions} where ${movieRenditions.movieId} = ${downloads.movieId} and ${movieRenditions.kind} = ${downloads.size} and ${movieRenditions.state} = 'ready') end`;
