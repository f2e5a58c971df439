import { useSessionStore } from './session.ts';

/**
 * Refreshes the profile behind a saved token (at start, and again from "Try again"); `session-bootstrap.ts` is
 * fetched only when needed. With a saved profile the app is already usable while this runs.
 */
export function startSessionBootstrap(): void {
  if (!useSessionStore.getState().token) return;
  void import('./session-bootstrap.ts').then((m) => m.bootstrapSession());
}
