import { useEffect } from 'react';
import { useSessionStore } from '../../lib/session.ts';
import { startDownloadManager } from './manager.ts';

/**
 * Starts the download manager for the signed-in person (again when the person changes), so screens that show
 * this device's downloads have them: the records come from IndexedDB, so this works offline.
 */
export function useDownloadManager(): void {
  const owner = useSessionStore((s) => (s.kind === 'agent' ? s.agent?.id : s.user?.id) ?? null);
  useEffect(() => {
    if (owner) startDownloadManager();
  }, [owner]);
}
