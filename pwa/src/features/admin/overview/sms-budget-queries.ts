import { contracts } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const SMS_BUDGET_STATUS_KEY = ['admin', 'sms-budget', 'status'] as const;
export const SMS_BUDGET_SETTING_KEY = ['admin', 'sms-budget', 'setting'] as const;

/** Where the SMS budget stands (decision 0201); refreshed every minute while the Overview is open. */
export function useSmsBudgetStatus() {
  return useQuery({
    queryKey: SMS_BUDGET_STATUS_KEY,
    queryFn: ({ signal }) => api(contracts.settings.adminSmsBudgetStatus, {}, { signal }),
    refetchInterval: 60_000,
  });
}

export function useSmsBudgetSetting() {
  return useQuery({
    queryKey: SMS_BUDGET_SETTING_KEY,
    queryFn: ({ signal }) => api(contracts.settings.adminSmsBudget, {}, { signal }),
  });
}
