import { contracts, type UserProfile } from '@filamu/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './api.ts';
import { queryKeys } from './query-client.ts';
import { useSessionStore } from './session.ts';

/** The signed-in user's profile, cached under `userProfile` and mirrored into the session store. */
export function useUserProfile(enabled = true) {
  const cached = useSessionStore((s) => s.user);
  const loadedAt = useSessionStore((s) => s.userLoadedAt);
  return useQuery<UserProfile>({
    queryKey: queryKeys.userProfile,
    queryFn: async () => {
      const user = await api(contracts.auth.profile);
      useSessionStore.getState().setUser(user);
      return user;
    },
    enabled,
    initialData: cached ?? undefined,
    initialDataUpdatedAt: cached ? loadedAt : undefined,
  });
}
