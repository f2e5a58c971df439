import { contracts } from '@filamu/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Rows per page of the Phones table. */
export const DEVICE_CHECKS_PAGE_SIZE = 25;

export function useDeviceChecks(page: number) {
  return useQuery({
    queryKey: ['adminDeviceChecks', page],
    queryFn: ({ signal }) =>
      api(contracts.deviceChecks.listDeviceChecks, { query: { page, pageSize: DEVICE_CHECKS_PAGE_SIZE } }, { signal }),
    // The old page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}
