import { contracts, type MovieCategoryName, type UserMovieList } from '@filamu/shared';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { writeLocal } from '../../lib/local-storage.ts';
import { queryKeys } from '../../lib/query-client.ts';
import { useSessionStore } from '../../lib/session.ts';
import type { LibraryRefine } from '../movie/library-url.ts';
import { movieKeys } from '../movie/queries.ts';
import { STORAGE_KEYS } from '../../lib/storage-names.ts';

/**
 * The library's server state, all under `movies` so the invalidations of product §7 (and the download manager's)
 * refresh it. One request gives every card its verdict (`access`) and download summary: no per-card calls.
 */
const LIBRARY_PAGE_SIZE = 24;

export interface LibraryFilter extends Required<LibraryRefine> {
  search: string;
  /** Only this section (`?category=`), or both. */
  category: MovieCategoryName | null;
}

const libraryKey = (filter: LibraryFilter) =>
  [
    ...movieKeys.library,
    { search: filter.search, category: filter.category, rating: filter.rating, vj: filter.vj, sort: filter.sort },
  ] as const;

/** The last library answer seen, per person and filter, for offline visits (never skeletons forever). */
const LAST_LIBRARY = STORAGE_KEYS.lastLibrary;

function rememberLibrary(filter: LibraryFilter, list: UserMovieList): void {
  const owner = useSessionStore.getState().user?.id;
  if (!owner) return;
  // A full or disabled storage only costs the offline copy.
  writeLocal(LAST_LIBRARY, JSON.stringify({ owner, key: JSON.stringify(libraryKey(filter)), list }));
}

/** Also what the page shows when the library cannot be fetched (a cold start offline, issue 16/22 §3). */
export function lastLibrary(filter: LibraryFilter): UserMovieList | undefined {
  try {
    const saved = JSON.parse(localStorage.getItem(LAST_LIBRARY) ?? 'null') as {
      owner: string;
      key: string;
      list: UserMovieList;
    } | null;
    const owner = useSessionStore.getState().user?.id;
    if (!saved || !owner || saved.owner !== owner) return undefined;
    return saved.key === JSON.stringify(libraryKey(filter)) ? saved.list : undefined;
  } catch {
    return undefined;
  }
}

function fetchLibraryPage(filter: LibraryFilter, category: MovieCategoryName | null, page: number) {
  return api(contracts.movies.userMovies, {
    query: {
      search: filter.search || undefined,
      category: category ?? undefined,
      rating: filter.rating ?? undefined,
      vj: filter.vj ?? undefined,
      sort: filter.sort ?? undefined,
      page,
      pageSize: LIBRARY_PAGE_SIZE,
    },
  });
}

/**
 * The first page of both sections (or of the one asked for) in one request. While a new search loads, the
 * previous results stay on screen (marked busy) instead of flashing back to skeletons; not across a change of
 * section, whose counts would be wrong meanwhile.
 */
export function useLibrary(filter: LibraryFilter) {
  return useQuery({
    queryKey: libraryKey(filter),
    queryFn: async () => {
      const list = await fetchLibraryPage(filter, filter.category, 1);
      rememberLibrary(filter, list);
      return list;
    },
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2].category === filter.category ? keepPreviousData(previous) : lastLibrary(filter),
  });
}

/**
 * "Load more" of one section: pages 2, 3, … of that category only, so each section grows on its own
 * (docs/decisions/0030-library-screens.md). Idle until `enabled` (the first press).
 */
export function useSectionMore(filter: LibraryFilter, category: MovieCategoryName, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [...libraryKey(filter), 'more', category] as const,
    queryFn: ({ pageParam }) => fetchLibraryPage(filter, category, pageParam),
    initialPageParam: 2,
    getNextPageParam: (last: UserMovieList) =>
      last.totals[category] > last.page * last.pageSize ? last.page + 1 : undefined,
    enabled,
  });
}

/**
 * How far the person is through the Kinayuganda movies that unlock English ones. Asked only while English
 * is locked: one call for the whole library, not one per card.
 */
export function useKinayugandaProgress(enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.movies, 'kinayuganda-progress'] as const,
    queryFn: () => api(contracts.downloads.kinayugandaStatus),
    enabled,
  });
}
