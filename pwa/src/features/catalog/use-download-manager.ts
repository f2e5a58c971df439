import { useEffect } from 'react';
import { useSessionStore } from '../../lib/session.ts';
import { startDownloadManager } from '../downloads/manager.ts';

/**
 * Makes sure the download manager mirrors the signed-in person's records, so the buttons see this device's
 * downloads. `startDownloadManager` is idempotent; the app shell may start it earlier.
 */
export function useDownloadManager(): void {
  const status = useSessionStore((s) => s.status);
  const userId = useSessionStore((s) => s.user?.id);
  const agentId = useSessionStore((s) => s.agent?.id);
  useEffect(() => {
    if (status === 'user' || status === 'agent') startDownloadManager();
  }, [status, userId, agentId]);
}
