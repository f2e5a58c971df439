import type { ParentalPinStatus } from '@filamu/shared';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { useSessionStore } from '../../lib/session.ts';

/**
 * Keeps a new PIN status with the session (saved on the phone, so the Play screen can ask for the PIN offline) and
 * asks the library again: what it hides changed.
 */
export function applyPinStatus(status: ParentalPinStatus): void {
  const { user, setUser } = useSessionStore.getState();
  if (user) {
    const updated = { ...user, parentalPin: status };
    setUser(updated);
    queryClient.setQueryData(queryKeys.userProfile, updated);
  }
  void queryClient.invalidateQueries({ queryKey: queryKeys.movies });
}

/** Whether this session has the PIN entered on the server now (restricted titles shown). */
export function unlockedNow(status: ParentalPinStatus | undefined, now = Date.now()): boolean {
  return !!status?.unlockedUntil && new Date(status.unlockedUntil).getTime() > now;
}
