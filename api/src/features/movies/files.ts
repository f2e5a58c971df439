import { DOWNLOAD_SIZE_LABELS, type DownloadSize, type MovieSize, RENDITION_KINDS } from '@filamu/shared';
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

/** Every file of a movie, smallest rendition first, the original last (what `sizes` lists). */
export function filesOf(movie: MovieRow, renditions: readonly MovieFile[]): MovieFile[] {
  const ready = renditions
    .map(({ size, key, bytes, height }) => ({ size, key, bytes, height }))
    .sort(
      (a, b) =>
        a.bytes - b.bytes ||
        RENDITION_KINDS.indexOf(a.size as (typeof RENDITION_KINDS)[number]) -
          RENDITION_KINDS.indexOf(b.size as (typeof RENDITION_KINDS)[number]),
    );
  return [...ready, { size: 'original', key: movie.s3Key, bytes: movie.sizeBytes, height: movie.height }];
}

export const sizesOf = (files: readonly MovieFile[]): MovieSize[] =>
  files.map(({ size, bytes, height }) => ({ size, bytes, height }));

/** The file of `size`, or a 409 naming the sizes that are ready (a rendition still encoding, failed or skipped). */
export function fileOfSize(files: readonly MovieFile[], size: DownloadSize): MovieFile {
  const file = files.find((f) => f.size === size);
  if (file) return file;
  const ready = files.map((f) => DOWNLOAD_SIZE_LABELS[f.size]).join(', ');
  throw new AppError(
    'conflict',
    `${DOWNLOAD_SIZE_LABELS[size]} is not ready for this movie yet. Sizes you can download now: ${ready}.`,
  );
}

/**
 * SQL: the storage key of the file a download fetches (its movie's original, or its size's rendition while that is
 * ready; null otherwise, so a link of a rendition that stopped being ready dies). Needs `downloads` and `movies`.
 */
export const downloadFileKey = (): SQL<string | null> =>
  sql<
    string | null
  >`case when ${downloads.size} = 'original' then ${movies.s3Key} else (select ${movieRenditions.storageKey} from ${movieRenditions} where ${movieRenditions.movieId} = ${downloads.movieId} and ${movieRenditions.kind} = ${downloads.size} and ${movieRenditions.state} = 'ready') end`;
