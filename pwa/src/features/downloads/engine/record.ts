import type { DownloadSize, MovieRating } from '@filamu/shared';
import { byHand, nightBytesAfter } from './night-rules.ts';

/**
 * The one state machine of a download on this device, shared by the engine worker, the screens and the
 * service worker. Records live in IndexedDB (`store.ts`); every change goes through `transition`.
 *
 *   queued ─▶ downloading ─▶ verifying ─▶ complete
 *     ▲          │  ▲
 *     │          ▼  │   waiting-network (no connection, back-off), needs-url (link lapsed),
 *     └──── paused / waiting-network / needs-url / needs-space
 *   any unfinished ─▶ failed (hard errors, after the attempts) · cancelled (the person gave up)
 */
export const LOCAL_STATES = [
  'queued',
  'downloading',
  'waiting-network',
  'paused',
  'needs-url',
  'needs-space',
  'verifying',
  'complete',
  'failed',
  'cancelled',
] as const;
export type LocalState = (typeof LOCAL_STATES)[number];

/** States the engine works on by itself, without the person doing anything. */
export const RUNNABLE_STATES: ReadonlySet<LocalState> = new Set([
  'queued',
  'downloading',
  'waiting-network',
  'needs-url',
]);

/** States from which the person can press Resume. */
export const RESUMABLE_STATES: ReadonlySet<LocalState> = new Set(['paused', 'needs-space', 'failed']);

/** Product §9: a hard error (not a network drop) is tried at most 3 times, 2 s × attempt apart. */
export const MAX_HARD_ATTEMPTS = 3;

export interface LocalDownload {
  /** `${ownerId}:${movieId}`: one record per person and movie on this device. */
  key: string;
  ownerId: string;
  movieId: string;
  /** The server's download row, once granted. */
  downloadId: string | null;
  title: string;
  category: 'Kinayuganda' | 'English';
  /**
   * The movie's rating when it was downloaded, for the player's badge and the parental PIN offline (decisions 0166,
   * 0170); absent on records made before it was kept, which the PIN treats as 18+ like movies saved before ratings.
   */
  rating?: MovieRating;
  vj: string;
  thumbnailUrl: string | null;
  /** Exact byte size of the file (from the catalogue, confirmed by the grant). */
  size: number;
  /**
   * The size the person chose (Small, …, Original), asked for again with every fresh link so a resume fetches the
   * same file; absent on records made before sizes existed (the server then keeps the size the download started with).
   */
  sizeChoice?: DownloadSize;
  /** Strong validator of the bytes we hold; a different one means the file changed. */
  etag: string | null;
  /**
   * The held file's nonce (decision 0229): the file is encrypted with its title's key and plays through the service
   * worker with the film's licence. Null or absent: a plain file (stored before encryption), played as it is.
   */
  fileNonce?: string | null;
  /** Which of the film's files is held (the grant's answer; absent on records made before it was kept). */
  fileKind?: DownloadSize;
  /**
   * The held file's signed manifest (decision 0243): what lets the film travel to another phone. Fetched when the
   * download finishes, or when the film is first sent; a film received from another phone came with it.
   */
  manifest?: string;
  /** The film came from another phone (issue 19/22): its licence is asked for as a received film. */
  received?: boolean;
  fileName: string;
  /** Signed link and its expiry (ms); null when a fresh one must be asked for. */
  url: string | null;
  urlExpiresAt: number;
  /** Bytes flushed to disk and recorded here: everything before it is trusted after a crash. */
  committed: number;
  state: LocalState;
  /** Why it waits or failed, in words for the person. */
  message: string | null;
  /** Hard errors in a row (network drops are not counted). */
  attempts: number;
  /** Bytes received from the network in total, including any fetched twice (resume overhead). */
  bytesFromNetwork: number;
  /** Times the transfer picked up again after an interruption. */
  resumes: number;
  /** The server has been told of completion. */
  reportedComplete: boolean;
  engine: 'ranged' | 'bgfetch';
  /**
   * Download tonight (issue 21/22): the film waits for the night bundle and is fetched only inside a night window —
   * started when one opens, paused when it closes, so it never spends day data. Cleared when the person pauses or
   * resumes it by hand (their own choice to spend day data).
   */
  nightOnly?: boolean;
  /** While a window is open: the instant (ms) it closes, after which the engine runs none of this film's bytes. */
  nightUntil?: number;
  /** Bytes of `bytesFromNetwork` received inside a night window (this phone's own count). */
  nightBytes?: number;
  createdAt: number;
  updatedAt: number;
  completedAt: number | null;
}

export type DownloadEvent =
  | { type: 'start' }
  | {
      type: 'granted';
      downloadId: string;
      url: string;
      urlExpiresAt: number;
      size: number;
      etag: string | null;
      fileNonce: string | null;
      fileKind: DownloadSize;
    }
  | { type: 'committed'; committed: number; etag: string | null; bytesFromNetwork: number }
  | { type: 'offline'; message?: string }
  | { type: 'link-lapsed' }
  | { type: 'no-space'; committed: number }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'cancel' }
  | { type: 'bytes-done' }
  | { type: 'verified' }
  | { type: 'reported' }
  /** The held file's signed manifest arrived: kept only if it names the file still held (its nonce). */
  | { type: 'manifest'; manifest: string; fileNonce: string }
  /** The browser's Background Fetch took the transfer over (it continues with the app closed). */
  | { type: 'background-started' }
  /**
   * Background Fetch gave up (or was stopped): the in-app engine starts over — its bytes are not ours to keep, but
   * `received` of them came over the network all the same (data spent, decision 0216).
   */
  | { type: 'background-ended'; paused: boolean; message?: string; received?: number }
  | { type: 'hard-error'; message: string }
  | { type: 'refused'; message: string }
  /** Download tonight: the film waits (paused, its bytes kept) for the next night window. */
  | { type: 'tonight'; message: string }
  /** A night window opened (closing at `until`, ms): a film waiting for tonight goes in the queue. */
  | { type: 'night-open'; until: number }
  /** The night window closed: a film for tonight stops where it is, its bytes kept, until the next window. */
  | { type: 'night-close'; message: string };

const ACTIVE: ReadonlySet<LocalState> = new Set([...RUNNABLE_STATES, 'verifying']);

function isFinished(state: LocalState): boolean {
  return state === 'complete' || state === 'cancelled';
}

/**
 * The next record after `event`, or the same object when the event does not apply in this state (a pause
 * that arrives after completion, progress from a transfer the person already cancelled, …).
 */
export function transition(record: LocalDownload, event: DownloadEvent, now: number): LocalDownload {
  const next = (patch: Partial<LocalDownload>): LocalDownload => ({ ...record, ...patch, updatedAt: now });
  const { state } = record;
  switch (event.type) {
    case 'start':
      // Picking up from bytes already on disk is a resume (the "Resumed N times" of product §8).
      return ACTIVE.has(state)
        ? next({
            state: 'downloading',
            message: null,
            resumes: record.committed > 0 ? record.resumes + 1 : record.resumes,
          })
        : record;
    case 'granted':
      if (!ACTIVE.has(state)) return record;
      return next({
        downloadId: event.downloadId,
        url: event.url,
        urlExpiresAt: event.urlExpiresAt,
        size: event.size,
        etag: record.etag ?? event.etag,
        // The file as it is now (a file that changes under a transfer asks for a fresh link: engine.ts).
        fileNonce: event.fileNonce,
        fileKind: event.fileKind,
        state: 'downloading',
        message: null,
      });
    case 'committed':
      // Bytes on disk are facts whatever the state: keep them even if a pause raced the flush.
      if (isFinished(state)) return record;
      return next({
        committed: Math.min(event.committed, record.size),
        etag: event.etag,
        bytesFromNetwork: event.bytesFromNetwork,
        nightBytes: nightBytesAfter(record, event.bytesFromNetwork, now),
        attempts: event.committed > record.committed ? 0 : record.attempts,
      });
    case 'offline':
      return ACTIVE.has(state)
        ? next({ state: 'waiting-network', message: event.message ?? 'Waiting for network' })
        : record;
    case 'link-lapsed':
      return ACTIVE.has(state) ? next({ state: 'needs-url', url: null, urlExpiresAt: 0 }) : record;
    case 'no-space':
      return ACTIVE.has(state)
        ? next({
            state: 'needs-space',
            committed: Math.min(event.committed, record.committed),
            message: 'Not enough space on this phone. Free some space, then resume.',
          })
        : record;
    case 'pause':
      return ACTIVE.has(state) || state === 'needs-space'
        ? next({ state: 'paused', message: null, ...byHand(record) })
        : record;
    case 'resume':
      return RESUMABLE_STATES.has(state) || state === 'waiting-network'
        ? next({
            state: 'queued',
            message: null,
            attempts: state === 'failed' ? 0 : record.attempts,
            ...byHand(record),
          })
        : record;
    case 'tonight':
      // A failed film is tried afresh tonight, as Resume would.
      return RUNNABLE_STATES.has(state) || RESUMABLE_STATES.has(state)
        ? next({
            state: 'paused',
            message: event.message,
            nightOnly: true,
            nightUntil: undefined,
            attempts: state === 'failed' ? 0 : record.attempts,
          })
        : record;
    case 'night-open':
      if (!record.nightOnly || isFinished(state) || state === 'failed') return record;
      return next({
        nightUntil: event.until,
        ...(state === 'paused' ? { state: 'queued' as const, message: null } : {}),
      });
    case 'night-close':
      // A film being verified has all its bytes: it finishes.
      // `nightUntil` stays: the transfer's last flush, written just after, still counts as night bytes.
      if (!record.nightOnly || !RUNNABLE_STATES.has(state)) return record;
      return next({ state: 'paused', message: event.message });
    case 'cancel':
      return state === 'complete' ? record : next({ state: 'cancelled', message: null, url: null });
    case 'bytes-done':
      return ACTIVE.has(state) ? next({ state: 'verifying', message: null }) : record;
    case 'verified':
      return state === 'verifying'
        ? next({ state: 'complete', committed: record.size, completedAt: now, message: null, url: null })
        : record;
    case 'manifest':
      if (record.fileNonce !== event.fileNonce || record.manifest === event.manifest) return record;
      return next({ manifest: event.manifest });
    case 'reported':
      return next({ reportedComplete: true });
    case 'background-started':
      return ACTIVE.has(state)
        ? next({ engine: 'bgfetch', state: 'downloading', committed: 0, message: null })
        : record;
    case 'background-ended':
      if (record.engine !== 'bgfetch' || isFinished(state)) return record;
      return next({
        engine: 'ranged',
        committed: 0,
        bytesFromNetwork: record.bytesFromNetwork + Math.max(0, event.received ?? 0),
        state: event.paused ? 'paused' : 'queued',
        message: event.message ?? null,
      });
    case 'hard-error': {
      if (!ACTIVE.has(state)) return record;
      const attempts = record.attempts + 1;
      return attempts >= MAX_HARD_ATTEMPTS
        ? next({ state: 'failed', attempts, message: event.message })
        : next({ state: 'queued', attempts, message: event.message });
    }
    case 'refused':
      return isFinished(state) ? record : next({ state: 'failed', message: event.message, url: null });
  }
}

/**
 * Whether a page that held `before` and now reads `after` from the store should announce the completion (the toast,
 * the subtitles fetched while online). A small film can be created and finished before the page first reads it, so
 * a record this page never saw counts as new once the page's list is loaded; a list still loading announces nothing,
 * as every finished film it brings was finished before.
 */
export function completedSinceSeen(
  before: LocalDownload | undefined,
  after: LocalDownload | undefined,
  listLoaded: boolean,
): boolean {
  return after?.state === 'complete' && listLoaded && before?.state !== 'complete';
}

export function recordKey(ownerId: string, movieId: string): string {
  return `${ownerId}:${movieId}`;
}

/** Who downloads which movie, as the catalogue describes it: a new record starts from this, the rest is its transfer's. */
export type NewDownloadInput = Pick<
  LocalDownload,
  'ownerId' | 'movieId' | 'title' | 'category' | 'rating' | 'vj' | 'thumbnailUrl' | 'size' | 'sizeChoice' | 'fileName'
>;

export function newDownload(input: NewDownloadInput, now: number): LocalDownload {
  return {
    ...input,
    key: recordKey(input.ownerId, input.movieId),
    downloadId: null,
    etag: null,
    url: null,
    urlExpiresAt: 0,
    committed: 0,
    state: 'queued',
    message: null,
    attempts: 0,
    bytesFromNetwork: 0,
    resumes: 0,
    reportedComplete: false,
    engine: 'ranged',
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
}
