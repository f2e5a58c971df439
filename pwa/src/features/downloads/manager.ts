import { contracts } from '@filamu/shared';
import { create } from 'zustand';
import { api } from '../../lib/api.ts';
import { getDeviceId } from '../../lib/device-id.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { useSessionStore } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { completedSinceSeen, RUNNABLE_STATES, type LocalDownload } from './engine/record.ts';
import { offerNotifications } from '../push/push-client.ts';
import { getDownload, listDownloads, listen, type ChannelMessage } from './engine/store.ts';
import type { WorkerCommand } from './engine/worker-protocol.ts';
import { reattachBackground } from './background.ts';
import { downloadSettings, onDownloadSettingsChange } from './settings.ts';
import { rememberSpeed } from './speed-memory.ts';
import { downloadsT } from './messages.ts';
import { currentOwnerId, shownOwnerId } from '../../lib/owner.ts';

/**
 * The page side of the download manager: mirrors this person's records from IndexedDB into a store the
 * screens read, starts the engine worker, wakes it on the lifecycle events that matter on a flaky phone
 * (app start, back online, app visible again) and turns taps into state-machine events.
 */
export interface LiveFigures {
  received: number;
  speedBps: number;
}

interface DownloadsState {
  ownerId: string | null;
  /** This person's records by movie id. */
  records: Record<string, LocalDownload>;
  live: Record<string, LiveFigures>;
  /** Movies whose grant request is in flight ("Checking..."). */
  checking: Record<string, true>;
  loaded: boolean;
}

export const useDownloadsStore = create<DownloadsState>()(() => ({
  ownerId: null,
  records: {},
  live: {},
  checking: {},
  loaded: false,
}));

let worker: Worker | null = null;
let stopListening: (() => void) | null = null;

function post(command: WorkerCommand): void {
  worker?.postMessage(command);
}

/**
 * The engine worker starts only when there is something to do: a download to resume, a tap that asked for one, or a
 * film the browser finished in the background (Background Fetch, every page closed) that the server has not yet been
 * told of. Opening the app with nothing under way costs a cheap phone no worker, no engine chunk and no CPU at start.
 */
function ensureWorker(): void {
  if (worker || !useDownloadsStore.getState().ownerId || typeof Worker === 'undefined') return;
  // Signed out, the phone still shows and plays the kept person's films, but downloads wait for a sign-in.
  if (!useSessionStore.getState().token) return;
  worker = new Worker(new URL('./engine/worker.ts', import.meta.url), { type: 'module', name: 'filamu-downloads' });
  sendAuth();
}

const hasWorkToDo = () =>
  Object.values(useDownloadsStore.getState().records).some(
    (record) =>
      RUNNABLE_STATES.has(record.state) ||
      record.state === 'verifying' ||
      (record.state === 'complete' && !record.reportedComplete && !!record.downloadId),
  );

/** After the records changed (here or in another tab, which may close mid-download): start the engine if needed. */
function startEngineIfNeeded(): void {
  if (worker || !hasWorkToDo()) return;
  ensureWorker();
  post({ type: 'kick' });
}

function sendAuth(): void {
  const { token } = useSessionStore.getState();
  post({ type: 'auth', ownerId: currentOwnerId(), token, deviceId: getDeviceId() });
  post({ type: 'settings', wifiOnly: downloadSettings().wifiOnly });
}

async function reload(key?: string): Promise<void> {
  const ownerId = useDownloadsStore.getState().ownerId;
  if (!ownerId) return;
  if (key) {
    const record = await getDownload(key);
    const movieId = key.slice(ownerId.length + 1);
    if (!key.startsWith(`${ownerId}:`)) return;
    const { records: held, loaded } = useDownloadsStore.getState();
    const before = held[movieId];
    useDownloadsStore.setState((s) => {
      const records = { ...s.records };
      if (record) records[movieId] = record;
      else delete records[movieId];
      return { records };
    });
    if (record && completedSinceSeen(before, record, loaded)) onCompleted(record);
    startEngineIfNeeded();
    return;
  }
  const records = await listDownloads(ownerId);
  useDownloadsStore.setState({ records: Object.fromEntries(records.map((r) => [r.movieId, r])), loaded: true });
  startEngineIfNeeded();
}

function onCompleted(record: LocalDownload): void {
  // The drops it survived are the engine's business: the person learns the film is there (issue 16/22, polish).
  toast.success(
    downloadsT('downloads.toast.complete'),
    downloadsT('downloads.toast.complete.text', { title: record.title }),
  );
  offerNotifications();
  // The server's verdicts change: this movie is downloaded, English may unlock.
  void queryClient.invalidateQueries({ queryKey: queryKeys.movies });
  void queryClient.invalidateQueries({ queryKey: queryKeys.downloadHistory });
}

function onMessage(message: ChannelMessage): void {
  switch (message.type) {
    case 'changed':
      void reload(message.key);
      return;
    case 'live': {
      const ownerId = useDownloadsStore.getState().ownerId;
      if (!ownerId || !message.key.startsWith(`${ownerId}:`)) return;
      const movieId = message.key.slice(ownerId.length + 1);
      useDownloadsStore.setState((s) => ({
        live: { ...s.live, [movieId]: { received: message.received, speedBps: message.speedBps } },
      }));
      if (message.speedBps > 0) rememberSpeed(message.speedBps);
      return;
    }
    case 'unauthorized':
      // Only the server's word that the session is invalid signs out; the API client does that on 401.
      void api(
        useSessionStore.getState().kind === 'agent' ? contracts.auth.agentProfile : contracts.auth.profile,
      ).catch(() => undefined);
      return;
    case 'kick':
      return;
  }
}

/** Wakes the engine after a command was recorded (a tap): starts it if it is not running yet. */
export const kick = () => {
  ensureWorker();
  post({ type: 'kick' });
};
/** The network, the tab or the settings changed: wakes a running engine, or one with downloads to resume. */
const wake = () => {
  if (worker) post({ type: 'kick' });
  else startEngineIfNeeded();
};
const onVisible = () => {
  if (document.visibilityState === 'visible') wake();
};

/**
 * Starts (or re-targets) the manager for the person whose films the phone shows (the signed-in one, or signed out the
 * kept one, decision 0233); safe to call on every session change.
 */
export function startDownloadManager(): void {
  const ownerId = shownOwnerId();
  if (typeof indexedDB === 'undefined') return;
  if (useDownloadsStore.getState().ownerId !== ownerId) {
    useDownloadsStore.setState({ ownerId, records: {}, live: {}, checking: {}, loaded: false });
    if (ownerId) void reload().then(() => reattachBackground(ownerId));
  }
  if (!stopListening) {
    stopListening = listen(onMessage);
    onDownloadSettingsChange(sendAuth);
    window.addEventListener('online', wake);
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('pageshow', wake);
  }
  sendAuth();
  wake();
}
