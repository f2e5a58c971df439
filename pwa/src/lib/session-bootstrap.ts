import { contracts } from '@filamu/shared';
import { api, isApiError } from './api.ts';
import { useSessionStore } from './session.ts';

/** Long enough for slow 3G, short enough that someone without a saved profile is not left waiting minutes. */
const PROFILE_TIMEOUT_MS = 20_000;

let inFlight: Promise<void> | null = null;
let retryOnOnline = false;

/**
 * Refreshes the profile behind the saved token. Only the server's 401 ends the session (the API client clears it,
 * product §8); offline, a timeout or a 5xx keeps the saved session and tries again when the connection returns
 * (docs/decisions/0040).
 */
export function bootstrapSession(): Promise<void> {
  inFlight ??= load().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

async function load(): Promise<void> {
  const store = useSessionStore.getState;
  const { kind, token } = store();
  if (!token) return;
  try {
    if (kind === 'agent') {
      const agent = await api(contracts.auth.agentProfile, {}, { redirectOn401: false, timeoutMs: PROFILE_TIMEOUT_MS });
      if (store().token === token) store().setAgent(agent);
    } else {
      const user = await api(contracts.auth.profile, {}, { redirectOn401: false, timeoutMs: PROFILE_TIMEOUT_MS });
      if (store().token === token) store().setUser(user);
    }
  } catch (error) {
    if (store().token !== token) return;
    if (isApiError(error) && error.status === 401) {
      store().clear(); // already done by the API client; the guards now send the person to /login
      return;
    }
    store().setUnreachable(true);
    if (!retryOnOnline) {
      retryOnOnline = true;
      window.addEventListener(
        'online',
        () => {
          retryOnOnline = false;
          void bootstrapSession();
        },
        { once: true },
      );
    }
  }
}
