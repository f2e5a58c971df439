import { contracts } from '@filamu/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Admin analytics cache; the Overview tab reads the same entry for its cards. */
const analyticsKeys = {
  all: ['adminAnalytics'] as const,
  platform: (days: number) => ['adminAnalytics', days] as const,
  topDownloads: ['adminAnalytics', 'topDownloads'] as const,
};

/** Totals plus the daily series for the last `days` days; the previous range stays on screen while a new one loads. */
export function usePlatformAnalytics(days: number) {
  return useQuery({
    queryKey: analyticsKeys.platform(days),
    queryFn: () => api(contracts.analytics.platformAnalytics, { query: { days } }),
    placeholderData: keepPreviousData,
  });
}

/** The ten most downloaded movies (completed downloads). */
export function useTopDownloads() {
  return useQuery({
    queryKey: analyticsKeys.topDownloads,
    queryFn: async () => (await api(contracts.analytics.topDownloads)).stats,
  });
}
