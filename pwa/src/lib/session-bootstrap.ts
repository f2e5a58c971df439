import { contracts } from '@filamu/shared';
import { api } from './api.ts';
import { useSessionStore } from './session.ts';

let started: Promise<void> | null = null;

/** Loads the profile behind a saved token once; any failure ends the session (SPEC §4). */
export function bootstrapSession(): Promise<void> {
  started ??= (async () => {
    const { kind, token } = useSessionStore.getState();
    if (!token) return;
    try {
      if (kind === 'agent') {
        const agent = await api(contracts.auth.agentProfile, {}, { redirectOn401: false });
        if (useSessionStore.getState().token === token) useSessionStore.getState().setAgent(agent);
      } else {
        const user = await api(contracts.auth.profile, {}, { redirectOn401: false });
        if (useSessionStore.getState().token === token) useSessionStore.getState().setUser(user);
      }
    } catch {
      if (useSessionStore.getState().token === token) useSessionStore.getState().clear();
    }
  })();
  return started;
}
