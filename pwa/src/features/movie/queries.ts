import { contracts, type UserMovie, type UserMovieList } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';

/**
 * One movie's server state, for every screen that shows a movie (the detail page, the player's title). Its keys sit
 * under `movies`, like the library's, so one invalidation (product §7, the download manager's) refreshes both.
 */
export const movieKeys = {
  /** Every page of the library, whatever its filter: the catalog adds the filter after these. */
  library: [...queryKeys.movies, 'library'] as const,
  detail: (id: string) => [...queryKeys.movies, 'detail', id] as const,
};

/** A movie already in a loaded library page, to show the detail page at once while it loads. */
function cachedMovie(id: string): UserMovie | undefined {
  const entries = queryClient.getQueriesData<UserMovieList | { pages: UserMovieList[] }>({
    queryKey: movieKeys.library,
  });
  for (const [, data] of entries) {
    if (!data) continue;
    const pages = 'pages' in data ? data.pages : [data];
    for (const page of pages) {
      const movie = page.movies.find((m) => m.id === id);
      if (movie) return movie;
    }
  }
  return undefined;
}

export function useMovie(id: string) {
  return useQuery({
    queryKey: movieKeys.detail(id),
    queryFn: async () => (await api(contracts.movies.userMovie, { params: { id } })).movie,
    placeholderData: () => cachedMovie(id),
  });
}
