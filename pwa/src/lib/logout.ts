import { contracts } from '@filamu/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from './api.ts';
import { getDeviceId } from './device-id.ts';
import { queryClient } from './query-client.ts';
import { useSessionStore } from './session.ts';

/** POST /auth/logout with this device id, then clear the session and go to `/` (even if the call fails). */
export function useLogout() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const logout = async () => {
    setPending(true);
    try {
      await api(contracts.auth.logout, { body: { currentDeviceId: getDeviceId() } }, { redirectOn401: false });
    } catch {
      /* the session ends locally either way */
    } finally {
      // Leaving on purpose: this phone stops showing their films until they sign in again (decision 0233).
      useSessionStore.getState().forgetKeptOwner();
      useSessionStore.getState().clear();
      queryClient.clear();
      setPending(false);
      void navigate('/', { replace: true });
    }
  };
  return { logout, pending };
}
