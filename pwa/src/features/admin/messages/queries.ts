import { contracts, type MessageChannel, type MessageStatus } from '@filamu/shared';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Not in the shared key list: only this tab and the overview card read these. */
const MESSAGES_KEY = ['adminMessages'] as const;
const GATEWAY_KEY = ['adminSmsGateway'] as const;
const MESSAGES_PAGE_SIZE = 25;

export interface MessageFilters {
  channel: MessageChannel | null;
  status: MessageStatus | null;
  q: string;
}

/** Keyset pages (decision 0156): "Show more" asks for the page after the last one shown. */
export function useMessages(filters: MessageFilters) {
  return useInfiniteQuery({
    queryKey: [...MESSAGES_KEY, filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api(
        contracts.messages.listMessages,
        {
          query: {
            channel: filters.channel ?? undefined,
            status: filters.status ?? undefined,
            q: filters.q || undefined,
            cursor: pageParam,
            limit: MESSAGES_PAGE_SIZE,
          },
        },
        { signal },
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

export function useResendMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ channel, id }: { channel: MessageChannel; id: string }) =>
      api(contracts.messages.resendMessage, { params: { channel, id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: MESSAGES_KEY }),
  });
}

/** The SMS gateway's balance; asked once a minute at most, since each ask goes to the gateway. */
export function useSmsGateway() {
  return useQuery({
    queryKey: GATEWAY_KEY,
    queryFn: ({ signal }) => api(contracts.messages.smsGatewayState, {}, { signal }),
    staleTime: 60_000,
  });
}
