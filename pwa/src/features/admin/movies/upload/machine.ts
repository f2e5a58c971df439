/**
 * One upload item's life (product §3 "Upload item", §4): queued → uploading (thumbnail, then movie) → processing
 * (metadata saved with its plans) → completed, or failed with a message and a Retry. After a reload an upload
 * whose file the browser no longer has waits in `needs-file` until the admin picks the same file again.
 * Pure: the engine feeds events, the screen renders the state, and an event that makes no sense is ignored.
 */

type UploadStatus = 'queued' | 'uploading' | 'processing' | 'completed' | 'failed' | 'needs-file';
type UploadPhase = 'thumbnail' | 'movie';

export interface UploadState {
  status: UploadStatus;
  /** While uploading: which file is going up. */
  phase: UploadPhase | null;
  /** Bytes of the current file stored so far, of `totalBytes`. */
  sentBytes: number;
  totalBytes: number;
  /** Recent transfer speed, bytes per second (0 when unknown). */
  speedBps: number;
  /** Set when failed. */
  errorMessage: string | null;
}

export type UploadEvent =
  | { type: 'start'; phase: UploadPhase; totalBytes: number; sentBytes?: number }
  | { type: 'progress'; sentBytes: number; speedBps: number }
  | { type: 'uploaded' }
  | { type: 'saved' }
  | { type: 'fail'; message: string }
  | { type: 'retry' }
  | { type: 'file-lost' }
  | { type: 'file-found' };

export const initialUploadState: UploadState = {
  status: 'queued',
  phase: null,
  sentBytes: 0,
  totalBytes: 0,
  speedBps: 0,
  errorMessage: null,
};

const ACTIVE: UploadStatus[] = ['queued', 'uploading', 'processing'];

export function transition(state: UploadState, event: UploadEvent): UploadState {
  switch (event.type) {
    case 'start':
      if (state.status !== 'queued' && state.status !== 'uploading') return state;
      return {
        ...state,
        status: 'uploading',
        phase: event.phase,
        totalBytes: event.totalBytes,
        sentBytes: event.sentBytes ?? 0,
        speedBps: 0,
        errorMessage: null,
      };
    case 'progress':
      if (state.status !== 'uploading') return state;
      return {
        ...state,
        sentBytes: Math.min(state.totalBytes, Math.max(0, event.sentBytes)),
        speedBps: event.speedBps,
      };
    case 'uploaded':
      // From queued too: a run resumed after the movie was already stored goes straight to saving it.
      if (state.status !== 'uploading' && state.status !== 'queued') return state;
      return { ...state, status: 'processing', phase: null, sentBytes: state.totalBytes, speedBps: 0 };
    case 'saved':
      return state.status === 'processing' ? { ...state, status: 'completed', phase: null, speedBps: 0 } : state;
    case 'fail':
      if (!ACTIVE.includes(state.status)) return state;
      return { ...state, status: 'failed', speedBps: 0, errorMessage: event.message };
    case 'retry':
      return state.status === 'failed' ? { ...state, status: 'queued', errorMessage: null } : state;
    case 'file-lost':
      return state.status === 'completed' ? state : { ...state, status: 'needs-file', speedBps: 0 };
    case 'file-found':
      return state.status === 'needs-file' ? { ...state, status: 'queued', errorMessage: null } : state;
  }
}

/** 0–100 for the item's bar: the movie's bytes (the thumbnail is small and shown as its own phase). */
export function percentOf(state: UploadState): number {
  if (state.status === 'completed' || state.status === 'processing') return 100;
  if (state.totalBytes <= 0) return 0;
  return Math.floor((state.sentBytes / state.totalBytes) * 100);
}

/** Whether leaving the page would interrupt it (the `beforeunload` warning). */
export function isRunning(state: UploadState): boolean {
  return state.status === 'uploading' || state.status === 'processing';
}
