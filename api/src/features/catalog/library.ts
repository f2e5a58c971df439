import {
  type ParentalHides,
  type PublicMovie,
  type UserMovie,
  type UserMovieList,
  isRatingHiddenBy,
  ratingsHiddenBy,
} from '@filamu/shared';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { catalogVersion, downloads, movies } from '../../db/schema.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { absoluteUrl } from '../../http/origin.ts';
import { posterSrcset, widestPosterKey } from '../posters/srcset.ts';
import { decideAccess, type Downloader, entitledMovie, ownDownloads } from '../movies/entitlement.ts';
import { liveMovie } from '../movies/movie.ts';
import {
  type CachedMovie,
  type Catalogue,
  type CatalogueSnapshot,
  entitledTo,
  kinayugandaRequired,
  type ListingQuery,
  pageOf,
} from './catalogue.ts';
import type { Database } from '../../db/client.ts';

interface LibraryDeps {
  database: Database;
  catalogue: Catalogue;
}
type DownloadSummary = NonNullable<UserMovie['download']>;

/** How often a request reloads the catalogue when it keeps changing under it before answering anyway. */
const MAX_CATALOGUE_RETRIES = 3;

interface CallerFacts {
  catalogueVersion: number;
  /** Entitled live Kinayuganda movies the caller completed. */
  kinayugandaCompleted: number;
  downloads: Map<string, DownloadSummary>;
}

/**
 * Everything personal a library answer needs, and the catalogue version, in one round trip: the caller's
 * downloads of these movies and how many entitled Kinayuganda movies they completed (counted from their own
 * downloads, which stay few, never from the catalogue).
 */
async function callerFacts(deps: LibraryDeps, caller: Downloader, movieIds: string[]): Promise<CallerFacts> {
  const db = deps.database.db;
  const completedKinayuganda = db
    .select({ n: count() })
    .from(downloads)
    .innerJoin(movies, eq(movies.id, downloads.movieId))
    .where(
      and(
        ownDownloads(caller),
        eq(downloads.status, 'completed'),
        liveMovie(),
        eq(movies.category, 'Kinayuganda'),
        entitledMovie(caller),
      ),
    );
  const pageDownloads = db
    .select({
      rows: sql`coalesce(json_agg(json_build_object(
        'movieId', ${downloads.movieId}, 'downloadId', ${downloads.id}, 'status', ${downloads.status},
        'downloadedBytes', ${downloads.downloadedBytes}, 'totalBytes', ${downloads.totalBytes},
        'resumedCount', ${downloads.resumedCount}, 'size', ${downloads.size},
        'fetchedBytes', ${downloads.fetchedBytes})), '[]'::json)`,
    })
    .from(downloads)
    .where(and(ownDownloads(caller), inArray(downloads.movieId, movieIds)));
  const [row] = await db
    .select({
      version: catalogVersion.version,
      kinayugandaCompleted: sql<number>`(${completedKinayuganda})`.mapWith(Number),
      downloads:
        movieIds.length === 0 ? sql<null>`null` : sql<(DownloadSummary & { movieId: string })[]>`(${pageDownloads})`,
    })
    .from(catalogVersion);
  const own = new Map<string, DownloadSummary>();
  for (const { movieId, ...summary } of row?.downloads ?? []) own.set(movieId, summary);
  return { catalogueVersion: row?.version ?? 0, kinayugandaCompleted: row?.kinayugandaCompleted ?? 0, downloads: own };
}

/**
 * Cuts what to answer from the catalogue snapshot held and asks the caller's facts for those movies; if the
 * facts query finds the catalogue changed meanwhile (rare: right after an admin edit), the snapshot is
 * reloaded and both are taken again, so the answer never mixes two catalogue versions.
 */
async function withFacts<P extends { movies: CachedMovie[] }, T>(
  deps: LibraryDeps,
  caller: Downloader,
  cut: (snapshot: CatalogueSnapshot) => P,
  answer: (snapshot: CatalogueSnapshot, facts: CallerFacts, part: P) => Promise<T>,
): Promise<T> {
  let snapshot = await deps.catalogue.cached();
  let part = cut(snapshot);
  let facts = await callerFacts(
    deps,
    caller,
    part.movies.map((m) => m.row.id),
  );
  for (let retry = 0; facts.catalogueVersion !== snapshot.version && retry < MAX_CATALOGUE_RETRIES; retry++) {
    snapshot = await deps.catalogue.atLeast(facts.catalogueVersion);
    part = cut(snapshot);
    facts = await callerFacts(
      deps,
      caller,
      part.movies.map((m) => m.row.id),
    );
  }
  return answer(snapshot, facts, part);
}

/** The fields every reader of these movies sees, from the cache (thumbnail links resolved together). */
async function toPublicMovies(catalogue: Catalogue, movies: CachedMovie[], origin: string): Promise<PublicMovie[]> {
  const link = async (key: string) => {
    const url = await catalogue.thumbnailLink(key);
    return url ? absoluteUrl(url, origin) : null;
  };
  const pictures = await Promise.all(
    movies.map(async ({ row }) => ({
      // Without an admin's thumbnail, the poster made from a frame of the video (decision 0143).
      thumbnail: await catalogue.thumbnailLink(row.thumbnailKey ?? widestPosterKey(row.posterVariants)),
      srcset: await posterSrcset(row.posterVariants, link),
    })),
  );
  return movies.map(({ row, createdAt, sizes, subtitles }, i) => {
    const { thumbnail, srcset } = pictures[i]!;
    return {
      id: row.id,
      title: row.title,
      description: row.description,
      category: row.category,
      vj: row.vj,
      rating: row.rating,
      certificate_number: row.certificateNumber,
      certificate_date: row.certificateDate,
      thumbnail_url: thumbnail ? absoluteUrl(thumbnail, origin) : null,
      thumbnail_srcset: srcset,
      size: row.sizeBytes,
      sizes,
      subtitles,
      duration_seconds: row.durationSeconds === null ? null : Math.round(row.durationSeconds),
      created_at: createdAt,
    };
  });
}

/** These movies as the caller sees them: the public fields plus what they may do with each. */
async function toUserMovies(
  deps: LibraryDeps,
  caller: Downloader,
  snapshot: CatalogueSnapshot,
  facts: CallerFacts,
  movies: CachedMovie[],
  origin: string,
): Promise<UserMovie[]> {
  const outstanding = kinayugandaOutstanding(snapshot, caller, facts);
  const views = await toPublicMovies(deps.catalogue, movies, origin);
  return movies.map((movie, i) => {
    const download = facts.downloads.get(movie.row.id) ?? null;
    return {
      ...views[i]!,
      s3_key: movie.row.s3Key,
      is_active: movie.row.isActive,
      access: decideAccess({
        downloader: caller,
        entitled: entitledTo(movie, caller),
        completed: download?.status === 'completed',
        category: movie.row.category,
        kinayugandaOutstanding: outstanding,
      }),
      download,
    };
  });
}

/**
 * Whether English is still locked: an entitled live Kinayuganda movie not completed, and English not already
 * unlocked in this paid period (decision 0177).
 */
const kinayugandaOutstanding = (snapshot: CatalogueSnapshot, caller: Downloader, facts: CallerFacts) =>
  !caller.englishKept && kinayugandaRequired(snapshot, caller) > facts.kinayugandaCompleted;

/**
 * The library as the caller sees it: every live movie, with what they may do with each, less the ratings their
 * parental PIN hides (`hides`, null when nothing is hidden from this session).
 */
export async function listUserMovies(
  deps: LibraryDeps,
  caller: Downloader,
  query: ListingQuery,
  origin: string,
  hides: ParentalHides | null = null,
): Promise<UserMovieList> {
  const counts = query.sort === 'popular' ? await deps.catalogue.downloadCounts() : undefined;
  const listing = { ...query, hiddenRatings: hides ? ratingsHiddenBy(hides) : [] };
  return withFacts(
    deps,
    caller,
    (snapshot) => pageOf(snapshot, listing, counts),
    async (snapshot, facts, page) => ({
      ...page,
      movies: await toUserMovies(deps, caller, snapshot, facts, page.movies, origin),
      subscribed: caller.subscribed,
      hasDownloadedAllKinayuganda: !kinayugandaOutstanding(snapshot, caller, facts),
      hiddenByParentalPin: hides,
    }),
  );
}

export function getUserMovie(
  deps: LibraryDeps,
  caller: Downloader,
  id: string,
  origin: string,
  hides: ParentalHides | null = null,
): Promise<{ movie: UserMovie }> {
  return withFacts(
    deps,
    caller,
    (snapshot) => ({ movies: [snapshot.byId.get(id)].filter((m) => m !== undefined) }),
    async (snapshot, facts, { movies: [movie] }) => {
      if (!movie) throw notFound('Movie');
      if (isRatingHiddenBy(hides, movie.row.rating)) {
        throw new AppError('pin_required', 'This title is hidden by your parental PIN. Enter the PIN to show it.');
      }
      const [view] = await toUserMovies(deps, caller, snapshot, facts, [movie], origin);
      return { movie: view! };
    },
  );
}

/** The library for anyone, signed in or not: no file keys, no per-person state. */
export async function listPublicMovies(deps: LibraryDeps, query: ListingQuery, origin: string) {
  const snapshot = await deps.catalogue.current();
  const page = pageOf(snapshot, query, query.sort === 'popular' ? await deps.catalogue.downloadCounts() : undefined);
  return { ...page, movies: await toPublicMovies(deps.catalogue, page.movies, origin) };
}
