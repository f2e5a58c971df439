import { contracts, type DownloadSize, type MovieRating, type MovieSize, type UserMovie } from '@filamu/shared';
import { create } from 'zustand';
import { api, isApiError } from '../../lib/api.ts';
import { getDeviceId } from '../../lib/device-id.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
import { useSessionStore } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { movieFile, removeMovieFile, storageFigures } from './engine/opfs.ts';
import {
  newDownload,
  recordKey,
  RESUMABLE_STATES,
  type LocalDownload,
  type NewDownloadInput,
} from './engine/record.ts';
import { rateLimitedMessage } from './engine/retry-after.ts';
import { offerNotifications } from '../push/push-client.ts';
import {
  announce,
  createDownload,
  deleteDownload,
  deleteSubtitles,
  dispatch,
  getDownload,
  listDownloads,
  listen,
  putDownload,
  type ChannelMessage,
} from './engine/store.ts';
import type { WorkerCommand } from './engine/worker-protocol.ts';
import { abortBackground, backgroundOptedIn, reattachBackground, startInBackground } from './background.ts';
import { spaceVerdict } from './estimates.ts';
import { grantRefusal } from './refusals.ts';
import { downloadSettings, onDownloadSettingsChange } from './settings.ts';
import { syncSubtitles } from './subtitles.ts';

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

/** The person whose downloads this device shows: user and agent ids live in different tables. */
export function currentOwnerId(): string | null {
  const { user, agent, kind } = useSessionStore.getState();
  if (kind === 'agent' && agent) return `agent:${agent.id}`;
  if (kind === 'user' && user) return `user:${user.id}`;
  return null;
}

let worker: Worker | null = null;
let stopListening: (() => void) | null = null;

function post(command: WorkerCommand): void {
  worker?.postMessage(command);
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
    const before = useDownloadsStore.getState().records[movieId];
    useDownloadsStore.setState((s) => {
      const records = { ...s.records };
      if (record) records[movieId] = record;
      else delete records[movieId];
      return { records };
    });
    if (record?.state === 'complete' && before && before.state !== 'complete') onCompleted(record);
    return;
  }
  const records = await listDownloads(ownerId);
  useDownloadsStore.setState({ records: Object.fromEntries(records.map((r) => [r.movieId, r])), loaded: true });
}

function onCompleted(record: LocalDownload): void {
  toast.success(
    'Download Complete',
    record.resumes > 0 ? `${record.title} · Resumed ${record.resumes} times` : `${record.title} is ready to watch.`,
  );
  offerNotifications();
  // While still online: the subtitles go with the film, for playing offline later.
  void syncSubtitles(record.key, record.movieId);
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

const kick = () => {
  post({ type: 'kick' });
};
const onVisible = () => {
  if (document.visibilityState === 'visible') kick();
};

/** Starts (or re-targets) the manager for the signed-in person; safe to call on every session change. */
export function startDownloadManager(): void {
  const ownerId = currentOwnerId();
  if (typeof indexedDB === 'undefined') return;
  if (useDownloadsStore.getState().ownerId !== ownerId) {
    useDownloadsStore.setState({ ownerId, records: {}, live: {}, checking: {}, loaded: false });
    if (ownerId) void reload().then(() => reattachBackground(ownerId));
  }
  if (!stopListening) {
    stopListening = listen(onMessage);
    onDownloadSettingsChange(sendAuth);
    window.addEventListener('online', kick);
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('pageshow', kick);
  }
  if (!worker && ownerId && typeof Worker !== 'undefined') {
    worker = new Worker(new URL('./engine/worker.ts', import.meta.url), { type: 'module', name: 'filamu-downloads' });
  }
  sendAuth();
  kick();
}

const SPEED_KEY = 'filamu.downloadSpeedBps';

function rememberSpeed(speedBps: number): void {
  try {
    localStorage.setItem(SPEED_KEY, String(Math.round(speedBps)));
  } catch {
    /* storage unavailable */
  }
}

/** The last speed measured on this device (bytes/s), for time estimates; null before any download. */
export function measuredSpeed(): number | null {
  try {
    const value = Number(localStorage.getItem(SPEED_KEY));
    return value > 0 ? value : null;
  } catch {
    return null;
  }
}

function setChecking(movieId: string, on: boolean): void {
  useDownloadsStore.setState((s) => {
    const checking = { ...s.checking };
    if (on) checking[movieId] = true;
    else delete checking[movieId];
    return { checking };
  });
}

export type DownloadableMovie = Pick<UserMovie, 'id' | 'title' | 'category' | 'vj' | 'thumbnail_url' | 'size'> & {
  /** The sizes on offer, when the caller knows them (the catalogue does; a history entry does not). */
  sizes?: MovieSize[];
  /** Kept with the file so the player shows the badge and the parental PIN guards it offline (a history entry does not know it). */
  rating?: MovieRating;
};

export interface StartOptions {
  /** Download again a movie completed before (takes one re-download). */
  redownload?: boolean;
  /** The size chosen (the size dialog or the default size); without it the server picks (the original). */
  size?: DownloadSize;
  /** The size dialog already warned that it may not fit: the person chose anyway (decision 0139). */
  spaceWarned?: boolean;
}

function fileNameFor(movie: DownloadableMovie): string {
  const safe = movie.title.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() || 'movie';
  return `${safe}.mp4`;
}

function recordInput(ownerId: string, movie: DownloadableMovie, size?: DownloadSize): NewDownloadInput {
  const chosen = size ? movie.sizes?.find((s) => s.size === size) : undefined;
  return {
    sizeChoice: size,
    ownerId,
    movieId: movie.id,
    title: movie.title,
    category: movie.category,
    rating: movie.rating,
    vj: movie.vj,
    thumbnailUrl: movie.thumbnail_url,
    size: chosen?.bytes ?? movie.size,
    fileName: fileNameFor(movie),
  };
}

/**
 * Download Now / Resume from a movie card: checks space, asks the server for the grant (its refusals become the
 * the product's toasts), records the download and wakes the engine. Offline, the download waits for the network.
 * `redownload`: Download again, a movie downloaded before whose file is not here (takes one re-download); it needs
 * the server's yes, so it never waits for the network. Resolves true when the download was recorded.
 */
export async function startDownload(movie: DownloadableMovie, options: StartOptions = {}): Promise<boolean> {
  const redownload = options.redownload === true;
  const ownerId = currentOwnerId();
  if (!ownerId) return false;
  const key = recordKey(ownerId, movie.id);
  const existing = await getDownload(key);
  if (existing && existing.state !== 'cancelled') {
    // Bytes already on this phone are never thrown away by a second tap: resume them instead.
    if (RESUMABLE_STATES.has(existing.state)) await resumeDownload(movie.id);
    return true;
  }
  const input = recordInput(ownerId, movie, options.size);
  const { free } = await storageFigures();
  if (!options.spaceWarned && spaceVerdict(input.size, existing?.committed ?? 0, free).fits === false) {
    toast.error('Not enough space', `Free up space on this phone to download ${movie.title}.`);
    return false;
  }
  void navigator.storage?.persist?.().catch(() => false);

  setChecking(movie.id, true);
  const background = backgroundOptedIn();
  let recorded = false;
  try {
    // A Background Fetch job cannot ask for a fresh link, so it gets the longer-lived one.
    const grant = await api(contracts.downloads.downloadUrl, {
      body: { movieId: movie.id, purpose: background ? 'background' : 'foreground', redownload, size: options.size },
    });
    if (grant.redownloads) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.redownloads });
      void queryClient.invalidateQueries({ queryKey: queryKeys.downloadHistory });
    }
    const record = newDownload(
      { ...input, size: grant.fileSize, sizeChoice: grant.size, fileName: grant.fileName || fileNameFor(movie) },
      Date.now(),
    );
    await removeMovieFile(key);
    const granted: LocalDownload = {
      ...record,
      downloadId: grant.downloadId,
      url: grant.downloadUrl,
      urlExpiresAt: Date.parse(grant.expiresAt),
      etag: grant.etag,
    };
    // Marked for Background Fetch before it is stored, so the in-app engine never starts it too.
    await putDownload({ ...granted, engine: background ? 'bgfetch' : 'ranged' });
    if (background && !(await startInBackground(granted, grant.downloadUrl))) {
      // Refused, unavailable or slow to start: the in-app engine runs it.
      await dispatch(key, { type: 'background-ended', paused: false });
    }
    recorded = true;
  } catch (error) {
    if (isApiError(error) && error.status === 0 && !redownload) {
      // No network: keep the person's intent; the engine asks for the link once back online.
      const record = newDownload(input, Date.now());
      await createDownload({ ...record, state: 'waiting-network', message: 'Waiting for network' });
      toast.info('Waiting for network', `${movie.title} will download when you are back online.`);
      recorded = true;
    } else if (isApiError(error) && error.status === 429 && !redownload) {
      // Too many links asked for (ADR 0061): keep the intent too; the engine waits out Retry-After, then asks.
      const message = rateLimitedMessage((error.retryAfter ?? 0) * 1000);
      const record = newDownload(input, Date.now());
      await createDownload({ ...record, state: 'waiting-network', message });
      toast.info('Download queued', `${movie.title}: ${message}.`);
      recorded = true;
    } else {
      const refusal = grantRefusal(error);
      toast.error(refusal.title, refusal.description);
      if (isApiError(error) && error.status >= 400 && error.status < 500) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.movies });
        void queryClient.invalidateQueries({ queryKey: queryKeys.redownloads });
      }
    }
  } finally {
    setChecking(movie.id, false);
  }
  kick();
  return recorded;
}

function keyOf(movieId: string): string | null {
  const ownerId = currentOwnerId();
  return ownerId ? recordKey(ownerId, movieId) : null;
}

export async function pauseDownload(movieId: string): Promise<void> {
  const key = keyOf(movieId);
  if (!key) return;
  const record = await dispatch(key, { type: 'pause' });
  if (record?.engine === 'bgfetch') await abortBackground(key);
  if (record?.state === 'paused') toast.info('Download Paused', `You can resume downloading ${record.title} later.`);
  else toast.error('Pause Failed');
}

export async function resumeDownload(movieId: string): Promise<void> {
  const key = keyOf(movieId);
  if (!key) return;
  const record = await dispatch(key, { type: 'resume' });
  if (record?.state === 'queued') toast.info('Resuming Download', record.title);
  kick();
}

/** Stops a download and frees its bytes; the server keeps it resumable. */
export async function cancelDownload(movieId: string): Promise<void> {
  const key = keyOf(movieId);
  if (!key) return;
  const record = await dispatch(key, { type: 'cancel' });
  if (record?.engine === 'bgfetch') await abortBackground(key);
  await removeMovieFile(key);
  await deleteSubtitles(key);
  await deleteDownload(key);
}

/** Deletes a finished (or abandoned) movie from this device. */
export async function deleteFromDevice(movieId: string): Promise<void> {
  const key = keyOf(movieId);
  if (!key) return;
  await dispatch(key, { type: 'cancel' });
  await removeMovieFile(key);
  await deleteSubtitles(key);
  await deleteDownload(key);
}

/** The finished file of a movie on this device. */
export async function openMovieFile(movieId: string): Promise<File> {
  const key = keyOf(movieId);
  if (!key) throw new Error('Sign in to play your downloads.');
  return movieFile(key);
}

export function wakeEngine(): void {
  announce({ type: 'kick' });
  kick();
}
