import { contracts, type AdminPaymentListQuery, type PaymentStatus } from '@filamu/shared';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-client.ts';

const PAGE_SIZE = 25;

/** Every admin payments page and filter lives under this key, so one invalidation refreshes them all. */
const adminPaymentsKey = ['adminPayments'] as const;

export interface PaymentFilters {
  status: PaymentStatus | null;
  search: string;
  page: number;
}

export function useAdminPayments(filters: PaymentFilters) {
  const query: AdminPaymentListQuery = {
    status: filters.status ?? undefined,
    search: filters.search.trim() || undefined,
    page: filters.page,
    pageSize: PAGE_SIZE,
  };
  return useQuery({
    queryKey: [...adminPaymentsKey, query],
    queryFn: () => api(contracts.adminPayments.listPayments, { query }),
    // Changing a filter keeps the last rows on screen (marked busy) instead of flashing a spinner.
    placeholderData: keepPreviousData,
  });
}

/** After a decision or a re-check: the list, and the subscriber list whose subscription may have changed. */
export async function afterPaymentChange(client: QueryClient): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: adminPaymentsKey }),
    client.invalidateQueries({ queryKey: queryKeys.adminSubscribers }),
  ]);
}
