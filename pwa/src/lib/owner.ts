import { ownerIdOf, useSession, useSessionStore } from './session.ts';

/** The person signed in on this device, whose downloads and watch positions the server knows; null signed out. */
export function currentOwnerId(): string | null {
  const { user, agent, kind } = useSessionStore.getState();
  if (kind === 'agent' && agent) return ownerIdOf('agent', agent);
  if (kind === 'user' && user) return ownerIdOf('user', user);
  return null;
}

/**
 * Whose films this phone shows: the person signed in, or, once the server has signed them out (another phone, an
 * expired session), still the last person who signed in here, so what they downloaded keeps playing (decision 0233).
 * Downloading and anything else the server must allow keep using `currentOwnerId()`.
 */
export function shownOwnerId(): string | null {
  const state = useSessionStore.getState();
  return currentOwnerId() ?? (state.status === 'guest' ? state.keptOwnerId : null);
}

/** The kept owner while nobody is signed in: My Downloads and the Play screen show their films with a bar. */
export function useSignedOutOwner(): string | null {
  const { status } = useSession();
  const kept = useSessionStore((s) => s.keptOwnerId);
  return status === 'guest' ? kept : null;
}
