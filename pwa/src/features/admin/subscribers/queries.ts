import { contracts, type ManageSubscriptionRequest } from '@filamu/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-client.ts';

/** Rows per page of the subscribers table; the server pages and searches (decision 0055). */
export const SUBSCRIBERS_PAGE_SIZE = 25;

export function useSubscribers(search: string, page: number) {
  return useQuery({
    queryKey: [...queryKeys.adminSubscribers, { search, page }],
    queryFn: ({ signal }) =>
      api(
        contracts.subscribers.listSubscribers,
        { query: { search: search || undefined, page, pageSize: SUBSCRIBERS_PAGE_SIZE } },
        { signal },
      ),
    // The old page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}

/** Every plan, for the Manage Subscription plan select (same cache entry as the Plans tab). */
export function useAdminPlans(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.adminSubscriptionPlans,
    queryFn: ({ signal }) => api(contracts.plans.adminListPlans, {}, { signal }),
    enabled,
  });
}

/** Product §7: a subscriber change refreshes the subscribers list and the (possibly own) profile. */
function useInvalidateSubscribers() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: queryKeys.adminSubscribers }),
      client.invalidateQueries({ queryKey: queryKeys.userProfile }),
    ]);
}

export function useManageSubscription() {
  const invalidate = useInvalidateSubscribers();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ManageSubscriptionRequest }) =>
      api(contracts.subscribers.manageSubscription, { params: { id }, body }),
    onSuccess: invalidate,
  });
}

/** One extra re-download for a person who lost a movie (decision 0122). */
export function useGrantRedownload() {
  const invalidate = useInvalidateSubscribers();
  return useMutation({
    mutationFn: (id: string) => api(contracts.subscribers.grantRedownload, { params: { id } }),
    onSuccess: invalidate,
  });
}

/** A generated password, answered once; the person's sessions end (decision 0155). */
export function useResetSubscriberPassword() {
  return useMutation({
    mutationFn: (id: string) => api(contracts.subscribers.resetSubscriberPassword, { params: { id } }),
  });
}

export function useDeleteSubscriber() {
  const invalidate = useInvalidateSubscribers();
  return useMutation({
    mutationFn: (id: string) => api(contracts.subscribers.deleteSubscriber, { params: { id } }),
    onSuccess: invalidate,
  });
}
