import {
  MOVIE_CATEGORY_NAMES,
  type MovieCategoryName,
  type MovieRating,
  type MovieSize,
  type MovieSort,
  type SubtitleSummary,
} from '@filamu/shared';
import { count, desc, eq } from 'drizzle-orm';
import { catalogVersion, downloads, moviePlans, movies } from '../../db/schema.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { filesOf, type MovieFile, readyRenditionsOf, sizesOf } from '../movies/files.ts';
import { liveMovie, type MovieRow } from '../movies/movie.ts';
import type { ObjectStorage } from '../storage/storage.ts';
import { allSubtitleSummaries } from '../movies/subtitle-summaries.ts';
import { matchesQuery, type Searchable, searchableOf, searchQueryOf } from './search.ts';

/** A live movie as the cache holds it. */
export interface CachedMovie {
  row: MovieRow;
  /** `created_at` as answers carry it, formatted once. */
  createdAt: string;
  /** Its ready renditions, smallest first, then the original (decision 0126). */
  files: MovieFile[];
  /** The same, as answers carry them. */
  sizes: MovieSize[];
  /** Its subtitle languages (a trigger moves the version when they change). */
  subtitles: SubtitleSummary[];
  /** The plans whose subscribers may download it. */
  planIds: ReadonlySet<string>;
  /** Title, VJ and description prepared once for the library search. */
  searchable: Searchable;
  /** The VJ lower-cased, for the VJ filter. */
  vjKey: string;
}

/** Every live movie at one catalogue version. */
export interface CatalogueSnapshot {
  version: number;
  /** Newest first (created_at, then id, both descending), like the listing index. */
  byCategory: Record<MovieCategoryName, CachedMovie[]>;
  byId: ReadonlyMap<string, CachedMovie>;
  bySKey: ReadonlyMap<string, CachedMovie>;
  /** Live Kinayuganda movies: all of them (staff are entitled to all) and per plan. */
  kinayuganda: { all: number; perPlan: ReadonlyMap<string, number> };
}

interface CatalogueDeps {
  database: Database;
  storage: ObjectStorage;
  config: Config;
  clock: Clock;
}

/** Completed downloads per movie, for the "most downloaded" order. */
export type DownloadCounts = ReadonlyMap<string, number>;
/** How long the counts are reused: an order, not a live figure (decision 0168). */
export const DOWNLOAD_COUNTS_TTL_MS = 5 * 60_000;

/**
 * The public part of the library, kept in memory per server process. The `catalog_version` row is bumped
 * in the same transaction as every change to `movies` or `movie_plans` (by triggers), so a process that reads
 * a version newer than its snapshot's reloads, and two replicas never disagree for longer than one request
 * (docs/decisions/0065-cached-catalogue.md). Readers compare versions themselves, in the query they make
 * anyway for the caller's own facts: a library request pays no extra round trip for it.
 */
export class Catalogue {
  private snapshot: CatalogueSnapshot | null = null;
  private loading: Promise<CatalogueSnapshot> | null = null;
  /** Signed thumbnail and poster links (S3 without a CDN), reused for half their lifetime so answers (and ETags) stay stable. */
  private signedThumbnails = new Map<string, { url: string; renewAt: number }>();

  constructor(private readonly deps: CatalogueDeps) {}

  /** The snapshot held now, loading the first one; it may be older than the database (compare versions). */
  async cached(): Promise<CatalogueSnapshot> {
    return this.snapshot ?? this.reload();
  }

  /** A snapshot of at least `version` (the one just read from the database). */
  async atLeast(version: number): Promise<CatalogueSnapshot> {
    const held = this.snapshot;
    if (held && held.version >= version) return held;
    const loaded = await this.reload();
    // A reload that started before the change may come back older: load once more.
    return loaded.version >= version ? loaded : this.reload();
  }

  /** The current snapshot, checked against the database's version (one small query). */
  async current(): Promise<CatalogueSnapshot> {
    const [row] = await this.deps.database.db.select({ version: catalogVersion.version }).from(catalogVersion);
    return this.atLeast(row?.version ?? 0);
  }

  /**
   * A thumbnail's link as clients use it (product §2 Admin Movies): the CDN or local public path when storage has
   * one, otherwise a signed link; null when the movie has none. Root-relative for the local driver.
   */
  async thumbnailLink(key: string | null): Promise<string | null> {
    if (!key) return null;
    const direct = this.deps.storage.publicUrl(key);
    if (direct) return direct;
    const now = this.deps.clock.now().getTime();
    const held = this.signedThumbnails.get(key);
    if (held && now < held.renewAt) return held.url;
    const ttlSeconds = this.deps.config.storage.downloadUrlTtlSeconds;
    const url = await this.deps.storage.presignGet(key, { expiresInSeconds: ttlSeconds });
    this.signedThumbnails.set(key, { url, renewAt: now + (ttlSeconds * 1000) / 2 });
    return url;
  }

  private counts: { map: DownloadCounts; at: number } | null = null;
  private countsLoading: Promise<DownloadCounts> | null = null;

  /** Completed downloads per movie, counted at most every DOWNLOAD_COUNTS_TTL_MS (one grouped read of an index). */
  async downloadCounts(): Promise<DownloadCounts> {
    const now = this.deps.clock.now().getTime();
    if (this.counts && now - this.counts.at < DOWNLOAD_COUNTS_TTL_MS) return this.counts.map;
    this.countsLoading ??= this.deps.database.db
      .select({ movieId: downloads.movieId, n: count() })
      .from(downloads)
      .where(eq(downloads.status, 'completed'))
      .groupBy(downloads.movieId)
      .then(
        (rows) => {
          const map = new Map(rows.map((r) => [r.movieId, Number(r.n)]));
          this.counts = { map, at: now };
          this.countsLoading = null;
          return map;
        },
        (error: unknown) => {
          this.countsLoading = null;
          throw error;
        },
      );
    return this.countsLoading;
  }

  /** One load at a time: concurrent requests that find the snapshot stale wait for the same load. */
  private reload(): Promise<CatalogueSnapshot> {
    this.loading ??= loadSnapshot(this.deps).then(
      (snapshot) => {
        this.loading = null;
        if (!this.snapshot || snapshot.version >= this.snapshot.version) {
          this.snapshot = snapshot;
          // Links of movies that left the catalogue (or changed thumbnail) are not kept.
          const keys = new Set(
            [...snapshot.byId.values()].flatMap(({ row }) => [
              row.thumbnailKey,
              ...(row.posterVariants ?? []).map((v) => v.key),
            ]),
          );
          for (const key of this.signedThumbnails.keys()) if (!keys.has(key)) this.signedThumbnails.delete(key);
        }
        return this.snapshot;
      },
      (error: unknown) => {
        this.loading = null;
        throw error;
      },
    );
    return this.loading;
  }
}

/** The version and the rows from one read-only snapshot of the database, so they always belong together. */
async function loadSnapshot(deps: CatalogueDeps): Promise<CatalogueSnapshot> {
  const { version, rows, links, renditions, subtitles } = await deps.database.db.transaction(
    async (tx) => {
      const [current] = await tx.select({ version: catalogVersion.version }).from(catalogVersion);
      const rows = await tx.select().from(movies).where(liveMovie()).orderBy(desc(movies.createdAt), desc(movies.id));
      const links = await tx.select().from(moviePlans);
      // Every ready rendition in one read (at most three per movie); a trigger moves the version when one changes.
      const renditions = await readyRenditionsOf(tx);
      const subtitles = await allSubtitleSummaries(tx);
      return { version: current?.version ?? 0, rows, links, renditions, subtitles };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const plansOf = new Map<string, Set<string>>();
  for (const link of links) {
    const plans = plansOf.get(link.movieId) ?? new Set<string>();
    plans.add(link.planId);
    plansOf.set(link.movieId, plans);
  }
  const renditionsOf = new Map<string, MovieFile[]>();
  for (const rendition of renditions) {
    const list = renditionsOf.get(rendition.movieId) ?? [];
    list.push(rendition);
    renditionsOf.set(rendition.movieId, list);
  }
  const byCategory: Record<MovieCategoryName, CachedMovie[]> = { Kinayuganda: [], English: [] };
  const byId = new Map<string, CachedMovie>();
  const bySKey = new Map<string, CachedMovie>();
  const perPlan = new Map<string, number>();
  for (const row of rows) {
    const planIds = plansOf.get(row.id) ?? new Set<string>();
    const files = filesOf(row, renditionsOf.get(row.id) ?? []);
    const movie: CachedMovie = {
      row,
      files,
      sizes: sizesOf(files),
      subtitles: subtitles.get(row.id) ?? [],
      createdAt: row.createdAt.toISOString(),
      planIds,
      searchable: searchableOf(row),
      vjKey: row.vj.toLowerCase(),
    };
    byCategory[row.category].push(movie);
    byId.set(row.id, movie);
    bySKey.set(row.s3Key, movie);
    if (row.category === 'Kinayuganda') for (const plan of planIds) perPlan.set(plan, (perPlan.get(plan) ?? 0) + 1);
  }
  return { version, byCategory, byId, bySKey, kinayuganda: { all: byCategory.Kinayuganda.length, perPlan } };
}

export interface ListingQuery {
  search?: string;
  category?: MovieCategoryName;
  rating?: MovieRating;
  vj?: string;
  sort?: MovieSort;
  page: number;
  pageSize: number;
  /** Ratings the caller's parental PIN hides (decision 0170); set by the server, never read from the request. */
  hiddenRatings?: readonly MovieRating[];
}

export interface ListingPage {
  movies: CachedMovie[];
  page: number;
  pageSize: number;
  totals: Record<MovieCategoryName, number>;
  hasMore: boolean;
}

/**
 * One page of live movies, newest (or most downloaded) first, paged per category so the library can fill both of
 * its sections (page 2 is the next `pageSize` Kinayuganda and the next `pageSize` English movies). Search matches
 * title, VJ and description, forgiving small typos (./search.ts); rating and VJ filter exactly.
 */
export function pageOf(snapshot: CatalogueSnapshot, query: ListingQuery, counts?: DownloadCounts): ListingPage {
  const downloaded = (m: CachedMovie) => counts?.get(m.row.id) ?? 0;
  const mostDownloadedFirst = (a: CachedMovie, b: CachedMovie) =>
    downloaded(b) - downloaded(a) || newestFirst(a.row, b.row);
  const search = searchQueryOf(query.search);
  const vj = query.vj ? query.vj.toLowerCase() : null;
  const hidden = query.hiddenRatings ?? [];
  const filtered = search !== null || vj !== null || query.rating !== undefined || hidden.length > 0;
  const keep = (m: CachedMovie) =>
    (query.rating === undefined || m.row.rating === query.rating) &&
    !hidden.includes(m.row.rating) &&
    (vj === null || m.vjKey === vj) &&
    (search === null || matchesQuery(m.searchable, search));
  const order =
    query.sort === 'popular' ? mostDownloadedFirst : (a: CachedMovie, b: CachedMovie) => newestFirst(a.row, b.row);
  const offset = (query.page - 1) * query.pageSize;
  const totals: Record<MovieCategoryName, number> = { Kinayuganda: 0, English: 0 };
  const page: CachedMovie[] = [];
  for (const category of query.category ? [query.category] : MOVIE_CATEGORY_NAMES) {
    let found = filtered ? snapshot.byCategory[category].filter(keep) : snapshot.byCategory[category];
    if (query.sort === 'popular') found = [...found].sort(mostDownloadedFirst);
    totals[category] = found.length;
    page.push(...found.slice(offset, offset + query.pageSize));
  }
  page.sort(order);
  return {
    movies: page,
    page: query.page,
    pageSize: query.pageSize,
    totals,
    hasMore: Object.values(totals).some((n) => n > offset + query.pageSize),
  };
}

function newestFirst(a: MovieRow, b: MovieRow): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** Entitled live Kinayuganda movies of a downloader: what must be completed before English unlocks. */
export function kinayugandaRequired(snapshot: CatalogueSnapshot, who: { staff: boolean; planId: string | null }) {
  if (who.staff) return snapshot.kinayuganda.all;
  return who.planId ? (snapshot.kinayuganda.perPlan.get(who.planId) ?? 0) : 0;
}

/** Whether the downloader may download this cached movie (product §5: staff every live movie, subscribers their plan's). */
export function entitledTo(movie: CachedMovie, who: { staff: boolean; planId: string | null }): boolean {
  return who.staff || (who.planId !== null && movie.planIds.has(who.planId));
}
