import { useSessionStore, type SessionState } from '../../lib/session.ts';
import { startDownloadManager } from './manager.ts';
import { restoreNightMode } from './tonight/night-mode.ts';

let installed = false;

const relevant = (s: SessionState) =>
  `${s.status}|${s.user?.id ?? ''}|${s.agent?.id ?? ''}|${s.token ?? ''}|${s.keptOwnerId ?? ''}`;

/**
 * Keeps the download manager on the signed-in person from app start (downloads resume as soon as the app opens,
 * whatever the first screen) and re-targets it on sign-in and sign-out (to the kept person, decision 0233).
 */
export function ensureDownloadManager(): void {
  if (installed) return;
  installed = true;
  let last = '';
  const apply = (state: SessionState) => {
    if (state.status === 'loading') return;
    const now = relevant(state);
    if (now === last) return;
    last = now;
    startDownloadManager();
    // A reload in the night goes on with the same night; a window that ended meanwhile pauses its films.
    restoreNightMode();
  };
  useSessionStore.subscribe(apply);
  apply(useSessionStore.getState());
}
