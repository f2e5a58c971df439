import { contracts } from '@filamu/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from './api.ts';
import { getDeviceId } from './device-id.ts';
import { queryClient } from './query-client.ts';
import { useSessionStore } from './session.ts';

/**
 * How long leaving waits for the server to hear of it. The phone forgets the session either way, so a slow or stalled
 * network must not hold a person on a screen they asked to leave; the request carries on in the background.
 */
const LOGOUT_WAIT_MS = 3_000;

/** POST /auth/logout with this device id, then go to `/` and clear the session (even if the call fails or stalls). */
export function useLogout() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const logout = async () => {
    setPending(true);
    try {
      // The session's token is read as the request starts, so clearing it below cannot change what is sent. A failure
      // changes nothing: the session ends on this phone either way.
      const told = api(
        contracts.auth.logout,
        { body: { currentDeviceId: getDeviceId() } },
        { redirectOn401: false },
      ).catch(() => undefined);
      await Promise.race([told, new Promise((resolve) => setTimeout(resolve, LOGOUT_WAIT_MS))]);
    } finally {
      // Leave first, committed at once: cleared while still on a signed-in screen, that screen's guard would send the
      // person to /login before the router's (transition-scheduled) move to `/` lands — reliably on a slow phone.
      await navigate('/', { replace: true, flushSync: true });
      // Leaving on purpose: this phone stops showing their films until they sign in again (decision 0233).
      useSessionStore.getState().forgetKeptOwner();
      useSessionStore.getState().clear();
      queryClient.clear();
      setPending(false);
    }
  };
  return { logout, pending };
}
