import { contracts, type WatchPosition } from '@filamu/shared';
import { create } from 'zustand';
import { api, isApiError } from '../../lib/api.ts';
import { useSessionStore } from '../../lib/session.ts';
import { currentOwnerId, shownOwnerId } from '../../lib/owner.ts';
import { listPositions, mergePosition, positionKey, type LocalPosition } from './store.ts';

/**
 * The page side of watch positions: this person's positions (by movie id) for the screens, saved on the phone first
 * and sent to the server when it can be reached (decision 0164). Pending ones wait in IndexedDB (`synced: false`) and
 * go on pause, on leaving the player, when the phone comes back online and when the app starts.
 */
interface WatchingState {
  ownerId: string | null;
  positions: Record<string, LocalPosition>;
  loaded: boolean;
}

export const useWatchingStore = create<WatchingState>()(() => ({ ownerId: null, positions: {}, loaded: false }));

function show(position: LocalPosition): void {
  const state = useWatchingStore.getState();
  if (state.ownerId !== position.ownerId) return;
  useWatchingStore.setState({ positions: { ...state.positions, [position.movieId]: position } });
}

/** Only subscribers' positions reach the server: an agent's stay on the phone. */
function syncsToServer(ownerId: string): boolean {
  return ownerId.startsWith('user:') && useSessionStore.getState().kind === 'user';
}

function fromServer(ownerId: string, server: WatchPosition, title: string): LocalPosition {
  return {
    key: positionKey(ownerId, server.movieId),
    ownerId,
    movieId: server.movieId,
    title,
    positionSeconds: server.positionSeconds,
    durationSeconds: server.durationSeconds,
    updatedAt: Date.parse(server.updatedAt),
    synced: true,
  };
}

let pushing: Promise<void> | null = null;

/** Sends every position the server has not got yet, oldest first; stops at the first network failure. */
function pushPending(): Promise<void> {
  pushing ??= (async () => {
    const ownerId = currentOwnerId();
    if (!ownerId || !syncsToServer(ownerId) || !navigator.onLine) return;
    const pending = (await listPositions(ownerId)).filter((p) => !p.synced).sort((a, b) => a.updatedAt - b.updatedAt);
    for (const local of pending) {
      try {
        const stored = await api(contracts.watching.saveWatchPosition, {
          params: { movieId: local.movieId },
          body: {
            positionSeconds: local.positionSeconds,
            durationSeconds: local.durationSeconds,
            updatedAt: new Date(local.updatedAt).toISOString(),
          },
        });
        // The server's answer is the newest of both: ours, or another phone's that came later.
        show(await mergePosition(fromServer(ownerId, stored, local.title)));
      } catch (error) {
        // Refused for good (movie gone, this phone's clock far ahead): keep it here, stop offering it to the server.
        if (isApiError(error) && error.status >= 400 && error.status < 500 && ![401, 408, 429].includes(error.status)) {
          show(await mergePosition({ ...local, synced: true }));
          continue;
        }
        return;
      }
    }
  })().finally(() => {
    pushing = null;
  });
  return pushing;
}

/** Takes the server's positions (another phone's) where they are newer than this phone's. */
async function pullPositions(): Promise<void> {
  const ownerId = currentOwnerId();
  if (!ownerId || !syncsToServer(ownerId) || !navigator.onLine) return;
  const { positions } = await api(contracts.watching.listWatchPositions);
  for (const server of positions) show(await mergePosition(fromServer(ownerId, server, server.title)));
}

let loading: Promise<void> | null = null;

/**
 * Reads this person's positions from the phone, then (online) sends what is pending and takes the server's. Screens
 * opening together share one load.
 */
export function loadPositions(): Promise<void> {
  loading ??= readAndSync().finally(() => {
    loading = null;
  });
  return loading;
}

async function readAndSync(): Promise<void> {
  // Signed out, the kept person's positions are read and saved here; they reach the server after the next sign-in.
  const ownerId = shownOwnerId();
  if (!ownerId) return;
  if (useWatchingStore.getState().ownerId !== ownerId) {
    useWatchingStore.setState({ ownerId, positions: {}, loaded: false });
  }
  const local = await listPositions(ownerId);
  useWatchingStore.setState({ positions: Object.fromEntries(local.map((p) => [p.movieId, p])), loaded: true });
  await syncNow();
}

/** Both directions, never throwing: a failed sync waits for the next chance. */
async function syncNow(): Promise<void> {
  try {
    await pushPending();
    await pullPositions();
  } catch {
    // Offline or the server is away: the queue stays in IndexedDB.
  }
}

/** Saves where the person is, on the phone at once; `send` also queues it for the server now. */
export async function savePosition(
  input: { movieId: string; title: string; positionSeconds: number; durationSeconds: number },
  send: boolean,
): Promise<void> {
  const ownerId = shownOwnerId();
  if (!ownerId || !(input.durationSeconds > 0)) return;
  const position = Math.min(Math.max(0, input.positionSeconds), input.durationSeconds);
  show(
    await mergePosition({
      key: positionKey(ownerId, input.movieId),
      ownerId,
      ...input,
      positionSeconds: position,
      updatedAt: Date.now(),
      synced: false,
    }),
  );
  if (send) void pushPending().catch(() => undefined);
}

let started = false;
/** Back online: send the queue and take the server's news. Once per page. */
export function startWatchingSync(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  window.addEventListener('online', () => void syncNow());
}
