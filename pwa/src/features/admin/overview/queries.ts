import { contracts } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-client.ts';

/**
 * The admin movie list for Recent Movies. Keyed under `adminMovies` so that invalidating it after an upload,
 * toggle or delete refreshes this too, with its own suffix so its cached shape never meets the Movies tab's.
 */
export function useRecentMovies() {
  return useQuery({
    queryKey: [...queryKeys.adminMovies, 'overview'],
    queryFn: async () => (await api(contracts.movies.adminListMovies)).movies,
  });
}
