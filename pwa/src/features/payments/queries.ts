import { contracts } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-client.ts';

/** Plans that can be bought now (`subscriptionPlans`). */
export function useSubscriptionPlans() {
  return useQuery({
    queryKey: queryKeys.subscriptionPlans,
    queryFn: async () => (await api(contracts.plans.customerPlans)).plans,
  });
}

/** The signed-in user's payments, newest first (`paymentHistory`). */
export function usePaymentHistory() {
  return useQuery({
    queryKey: queryKeys.paymentHistory,
    queryFn: async () => (await api(contracts.payments.history)).payments,
  });
}

/** The payment waiting for the phone's approval, if any (`waitingPayment`): it blocks a second purchase. */
export function useWaitingPayment(enabled = true) {
  return useQuery({
    queryKey: queryKeys.waitingPayment,
    queryFn: async () => (await api(contracts.payments.waiting)).payment,
    enabled,
    staleTime: 5_000,
  });
}
