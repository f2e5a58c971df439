import { contracts, type GrantRedownloadRequest, type ManageSubscriptionRequest } from '@filamu/shared';
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

/** What support reads before granting a re-download: the person's month and recent movies (decision 0214). */
export function useSupportContext(id: string | null) {
  return useQuery({
    queryKey: [...queryKeys.adminSubscribers, 'support-context', id],
    queryFn: ({ signal }) => api(contracts.subscribers.subscriberSupportContext, { params: { id: id! } }, { signal }),
    enabled: id !== null,
    // Asked for as the dialog opens: what the person did a minute ago counts.
    staleTime: 0,
  });
}

/** The person's history of support actions, newest first (decision 0214). */
export function useSupportHistory(id: string | null) {
  return useQuery({
    queryKey: [...queryKeys.adminSubscribers, 'history', id],
    queryFn: ({ signal }) => api(contracts.subscribers.subscriberHistory, { params: { id: id! } }, { signal }),
    enabled: id !== null,
    staleTime: 0,
  });
}

/** One extra re-download for a person who lost a movie (decision 0122), with support's note (decision 0214). */
export function useGrantRedownload() {
  const invalidate = useInvalidateSubscribers();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: GrantRedownloadRequest }) =>
      api(contracts.subscribers.grantRedownload, { params: { id }, body }),
    onSuccess: invalidate,
  });
}

/** A generated password, answered once and texted to a proven phone; the person's sessions end (decisions 0155, 0214). */
export function useResetSubscriberPassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(contracts.subscribers.resetSubscriberPassword, { params: { id } }),
    // Only the history changed: the list stays as it is.
    onSuccess: (_result, id) => client.invalidateQueries({ queryKey: [...queryKeys.adminSubscribers, 'history', id] }),
  });
}

export function useDeleteSubscriber() {
  const invalidate = useInvalidateSubscribers();
  return useMutation({
    mutationFn: (id: string) => api(contracts.subscribers.deleteSubscriber, { params: { id } }),
    onSuccess: invalidate,
  });
}
