import { contracts, type AdminMovie } from '@filamu/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryClient, queryKeys } from '../../../lib/query-client.ts';

/** The Movies tab's server data; after every change both the admin list and the library refresh (SPEC §7). */

export function useAdminMovies() {
  return useQuery({
    queryKey: queryKeys.adminMovies,
    queryFn: async () => (await api(contracts.movies.adminListMovies)).movies,
  });
}

/** Only active plans are offered on the upload form (SPEC §5). */
export function useActivePlans() {
  return useQuery({
    queryKey: queryKeys.adminSubscriptionPlans,
    queryFn: async () => (await api(contracts.plans.adminListPlans)).plans,
    select: (plans) => plans.filter((plan) => plan.is_active),
  });
}

const refresh = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.adminMovies }),
    queryClient.invalidateQueries({ queryKey: queryKeys.movies }),
  ]);

export function useToggleMovie() {
  return useMutation({
    mutationFn: (movie: AdminMovie) =>
      api(contracts.movies.adminToggleMovie, { params: { id: movie.id }, body: { is_active: !movie.is_active } }),
    onSuccess: refresh,
  });
}

export function useDeleteMovie() {
  return useMutation({
    mutationFn: (movie: AdminMovie) => api(contracts.movies.adminDeleteMovie, { params: { id: movie.id } }),
    onSuccess: refresh,
  });
}
