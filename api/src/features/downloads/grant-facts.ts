import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { downloads, movies } from '../../db/schema.ts';
import { type Downloader, entitledMovie, kinayugandaOutstandingSql, ownDownloads } from '../movies/entitlement.ts';
import type { MovieFile } from '../movies/files.ts';
import { liveMovie, type MovieRow } from '../movies/movie.ts';
import { fileAsCommitted } from './grant-reads.ts';

/** What a grant reads once it holds the downloader's lock (grants.ts). */

/**
 * In one statement, under the downloader's lock: whether the movie is still live, whether they are entitled to
 * it, their download of it (locked, so a completion cannot slip in before the update) and, for an English
 * movie, whether a Kinayuganda one still locks it — asked only when the caller's catalogue says English (null
 * otherwise: the grant asks again if the committed category is English). A grant that guessed its file reads here the
 * file as committed and what `alongside` reads (decision 0242).
 */
export async function grantFacts<Read>(
  tx: Tx,
  downloader: Downloader,
  movie: MovieRow,
  expected: ExpectedRead<Read> | null,
  englishExpected = movie.category === 'English',
) {
  const existing = tx
    .select({
      id: downloads.id,
      status: downloads.status,
      resumedCount: downloads.resumedCount,
      linksSinceProgress: downloads.linksSinceProgress,
      copiesSent: downloads.copiesSent,
      deliveredBytes: downloads.deliveredBytes,
      totalBytes: downloads.totalBytes,
      linkExpiresAt: downloads.linkExpiresAt,
      redownloadStartedAt: downloads.redownloadStartedAt,
      confirmedAt: downloads.confirmedAt,
      size: downloads.size,
    })
    .from(downloads)
    .where(and(ownDownloads(downloader), eq(downloads.movieId, movies.id)))
    .for('update')
    .as('existing');
  const [facts] = await tx
    .select({
      entitled: sql<boolean>`${entitledMovie(downloader)}`,
      // The category as committed, not as this process's catalogue last saw it: an admin may just have changed it.
      category: movies.category,
      // Asked only of a movie the caller expects to be English: planning it costs a Kinayuganda grant half this read.
      kinayugandaOutstanding: englishExpected
        ? sql<boolean>`case when ${movies.category} = 'English' then ${kinayugandaOutstandingSql(downloader)} else false end`
        : sql<boolean | null>`null`,
      existing: {
        id: existing.id,
        status: existing.status,
        resumedCount: existing.resumedCount,
        linksSinceProgress: existing.linksSinceProgress,
        copiesSent: existing.copiesSent,
        deliveredBytes: existing.deliveredBytes,
        totalBytes: existing.totalBytes,
        linkExpiresAt: existing.linkExpiresAt,
        redownloadStartedAt: existing.redownloadStartedAt,
        confirmedAt: existing.confirmedAt,
        size: existing.size,
      },
      // What a grant that guessed its file reads here instead of before the lock (decision 0242).
      file: expected ? fileAsCommitted(expected.file.size) : sql<unknown>`null`,
      alongside: expected?.read ?? sql<Read>`null`,
    })
    .from(movies)
    .leftJoinLateral(existing, sql`true`)
    .where(and(eq(movies.id, movie.id), liveMovie()));
  return facts;
}

/** A grant that guessed its file from the cache reads, under its lock, the file as committed and what `alongside` reads. */
export interface ExpectedRead<Read> {
  file: MovieFile;
  read: SQL<Read> | undefined;
}

export type ExistingFacts = NonNullable<Awaited<ReturnType<typeof grantFacts>>>['existing'];
