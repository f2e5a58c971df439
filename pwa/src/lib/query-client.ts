import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api.ts';

/** Server cache. Keys follow product §7: userProfile, subscriptionPlans, movies, … */
export const queryKeys = {
  userProfile: ['userProfile'] as const,
  agentProfile: ['agentProfile'] as const,
  subscriptionPlans: ['subscriptionPlans'] as const,
  movies: ['movies'] as const,
  adminMovies: ['adminMovies'] as const,
  adminSubscribers: ['adminSubscribers'] as const,
  adminSubscriptionPlans: ['adminSubscriptionPlans'] as const,
  adminAgents: ['adminAgents'] as const,
  paymentHistory: ['paymentHistory'] as const,
  waitingPayment: ['waitingPayment'] as const,
  downloadHistory: ['downloadHistory'] as const,
  downloadStats: ['downloadStats'] as const,
  redownloads: ['redownloads'] as const,
  adminSystemStatus: ['adminSystemStatus'] as const,
  dataPrice: ['dataPrice'] as const,
};

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => {
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
        return failureCount < 2;
      },
    },
    mutations: { retry: false },
  },
});
