import type { UserMovie, UserMovieList } from '@filamu/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { downloads, moviePlans, movies } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import {
  decideAccess,
  type Downloader,
  kinayugandaOutstanding,
  liveMovie,
  ownDownloads,
} from '../downloads/entitlement.ts';
import type { DownloadRow, MovieRow } from '../downloads/records.ts';
import { type ListingQuery, listLiveMovies } from './listing.ts';
import { toPublicMovie } from './movie-view.ts';

type LibraryDeps = Pick<Deps, 'database' | 'storage' | 'config'>;

/** The caller's download rows and entitlements for these movies, and whether Kinayuganda still locks English. */
async function personalFacts(deps: LibraryDeps, caller: Downloader, movieIds: string[]) {
  const db = deps.database.db;
  const [own, inPlan, kinayugandaLeft] = await Promise.all([
    movieIds.length === 0
      ? []
      : db
          .select()
          .from(downloads)
          .where(and(ownDownloads(caller), inArray(downloads.movieId, movieIds))),
    caller.planId && movieIds.length > 0
      ? db
          .select({ movieId: moviePlans.movieId })
          .from(moviePlans)
          .where(and(eq(moviePlans.planId, caller.planId), inArray(moviePlans.movieId, movieIds)))
      : [],
    kinayugandaOutstanding(db, caller),
  ]);
  const downloadsByMovie = new Map<string, DownloadRow>(own.map((d) => [d.movieId, d]));
  const planMovies = new Set(inPlan.map((p) => p.movieId));
  return {
    kinayugandaLeft,
    downloadOf: (id: string) => downloadsByMovie.get(id) ?? null,
    entitled: (id: string) => caller.staff || planMovies.has(id),
  };
}

async function toUserMovie(
  deps: LibraryDeps,
  caller: Downloader,
  movie: MovieRow,
  facts: Awaited<ReturnType<typeof personalFacts>>,
  origin: string,
): Promise<UserMovie> {
  const download = facts.downloadOf(movie.id);
  return {
    ...(await toPublicMovie(deps, movie, origin)),
    s3_key: movie.s3Key,
    is_active: movie.isActive,
    access: decideAccess({
      downloader: caller,
      entitled: facts.entitled(movie.id),
      completed: download?.status === 'completed',
      category: movie.category,
      kinayugandaOutstanding: facts.kinayugandaLeft,
    }),
    download: download && {
      downloadId: download.id,
      status: download.status,
      downloadedBytes: download.downloadedBytes,
      totalBytes: download.totalBytes,
      resumedCount: download.resumedCount,
    },
  };
}

/** The library as the caller sees it: every live movie, with what they may do with each. */
export async function listUserMovies(
  deps: LibraryDeps,
  caller: Downloader,
  query: ListingQuery,
  origin: string,
): Promise<UserMovieList> {
  const page = await listLiveMovies(deps.database.db, query);
  const facts = await personalFacts(
    deps,
    caller,
    page.movies.map((m) => m.id),
  );
  return {
    ...page,
    movies: await Promise.all(page.movies.map((m) => toUserMovie(deps, caller, m, facts, origin))),
    subscribed: caller.subscribed,
    hasDownloadedAllKinayuganda: !facts.kinayugandaLeft,
  };
}

export async function getUserMovie(
  deps: LibraryDeps,
  caller: Downloader,
  id: string,
  origin: string,
): Promise<{ movie: UserMovie }> {
  const [movie] = await deps.database.db
    .select()
    .from(movies)
    .where(and(eq(movies.id, id), liveMovie()));
  if (!movie) throw notFound('Movie');
  const facts = await personalFacts(deps, caller, [movie.id]);
  return { movie: await toUserMovie(deps, caller, movie, facts, origin) };
}

/** The library for anyone, signed in or not: no file keys, no per-person state. */
export async function listPublicMovies(deps: LibraryDeps, query: ListingQuery, origin: string) {
  const page = await listLiveMovies(deps.database.db, query);
  return { ...page, movies: await Promise.all(page.movies.map((m) => toPublicMovie(deps, m, origin))) };
}
