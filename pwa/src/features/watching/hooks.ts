import { useEffect } from 'react';
import { useSessionStore } from '../../lib/session.ts';
import { shownOwnerId } from '../../lib/owner.ts';
import type { LocalPosition } from './store.ts';
import { loadPositions, startWatchingSync, useWatchingStore } from './sync.ts';

/** This person's positions on this phone (merged with the server's when online), loaded once per person. */
export function useWatchPositions(): { loaded: boolean; positions: Record<string, LocalPosition> } {
  const ownerId = useSessionStore(() => shownOwnerId());
  useEffect(() => {
    if (!ownerId) return;
    startWatchingSync();
    void loadPositions().catch(() => undefined);
  }, [ownerId]);
  const loaded = useWatchingStore((s) => s.loaded && s.ownerId === ownerId);
  const positions = useWatchingStore((s) => s.positions);
  return { loaded, positions };
}
