import { contracts, type AdminPlan, type PlanInput, type PlanUpdate } from '@filamu/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryClient, queryKeys } from '../../../lib/query-client.ts';

/** Every plan, by display order (the API sorts: display_order, then name). */
export function useAdminPlans() {
  return useQuery({
    queryKey: queryKeys.adminSubscriptionPlans,
    queryFn: async () => (await api(contracts.plans.adminListPlans)).plans,
  });
}

/**
 * product §7: after a plan changes, both the admin list and the customers' plan list are stale; so are the movie
 * lists, whose movies may have joined or left the plan.
 */
function invalidatePlans(): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.adminSubscriptionPlans }),
    queryClient.invalidateQueries({ queryKey: queryKeys.subscriptionPlans }),
    queryClient.invalidateQueries({ queryKey: queryKeys.adminMovies }),
    queryClient.invalidateQueries({ queryKey: queryKeys.movies }),
  ]);
}

export function useCreatePlan() {
  return useMutation({
    mutationFn: async (body: PlanInput): Promise<AdminPlan> =>
      (await api(contracts.plans.adminCreatePlan, { body })).plan,
    onSuccess: invalidatePlans,
  });
}

export function useUpdatePlan() {
  return useMutation({
    mutationFn: async ({ id, body }: { id: string; body: PlanUpdate }): Promise<AdminPlan> =>
      (await api(contracts.plans.adminUpdatePlan, { params: { id }, body })).plan,
    onSuccess: invalidatePlans,
  });
}

export function useDeletePlan() {
  return useMutation({
    mutationFn: (id: string) => api(contracts.plans.adminDeletePlan, { params: { id } }),
    onSuccess: invalidatePlans,
  });
}
