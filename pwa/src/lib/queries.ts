import { contracts, type UserProfile } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './api.ts';
import { queryClient, queryKeys } from './query-client.ts';
import { useSessionStore } from './session.ts';

async function fetchUserProfile(): Promise<UserProfile> {
  const user = await api(contracts.auth.profile);
  useSessionStore.getState().setUser(user);
  return user;
}

/**
 * Loads the profile now and puts it in the `userProfile` cache (and the session store), whether or not a screen
 * is showing it: invalidating alone would leave an unmounted cache entry stale until its next use.
 */
export function refreshUserProfile(): Promise<UserProfile> {
  return queryClient.fetchQuery({ queryKey: queryKeys.userProfile, queryFn: fetchUserProfile, staleTime: 0 });
}

/** The signed-in user's profile, cached under `userProfile` and mirrored into the session store. */
export function useUserProfile(enabled = true) {
  const cached = useSessionStore((s) => s.user);
  const loadedAt = useSessionStore((s) => s.userLoadedAt);
  return useQuery<UserProfile>({
    queryKey: queryKeys.userProfile,
    queryFn: fetchUserProfile,
    enabled,
    initialData: cached ?? undefined,
    initialDataUpdatedAt: cached ? loadedAt : undefined,
  });
}
