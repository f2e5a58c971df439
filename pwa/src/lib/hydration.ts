import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while React renders on the server (prerendering) and while it hydrates that HTML in the browser; true
 * afterwards and in every plain client render. Whatever depends on the browser (the saved session, the theme,
 * the connection) waits for it, so the first client render matches the prerendered HTML exactly.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
