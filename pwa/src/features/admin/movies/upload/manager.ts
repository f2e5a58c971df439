import { contracts } from '@filamu/shared';
import { create } from 'zustand';
import { api } from '../../../../lib/api.ts';
import { queryClient, queryKeys } from '../../../../lib/query-client.ts';
import { toast } from '../../../../lib/toast.ts';
import { abortStored, runUpload, type UploadDeps } from './engine.ts';
import { initialUploadState, isRunning, transition } from './machine.ts';
import { identityOf, sameFile } from './parts.ts';
import type { StoredUpload, UploadForm } from './record.ts';
import { indexedDbRecords, memoryRecords, type UploadRecords } from './store.ts';
import { xhrPut } from './transport.ts';
import { attachedToPlans } from '../validation.ts';
import { LOCKS } from '../../../../lib/storage-names.ts';

/**
 * The Movies tab's upload queue: one item per submitted movie, run one at a time (they share the office line),
 * kept in IndexedDB until saved. Lives outside React so switching tabs inside the console does not stop an upload.
 */

interface UploadsState {
  items: StoredUpload[];
  /** Unfinished uploads were read from IndexedDB. */
  loaded: boolean;
}

export const useUploads = create<UploadsState>(() => ({ items: [], loaded: false }));

/**
 * Leaving the app while an upload runs cuts it off (it resumes later, but only once the admin comes back and
 * picks the file again), so the browser asks first. Here rather than in a screen: the upload runs on when the
 * admin switches to another tab of the console.
 */
const warnBeforeLeaving = (event: BeforeUnloadEvent) => {
  event.preventDefault();
  event.returnValue = '';
};
let warning = false;
useUploads.subscribe((state) => {
  const running = state.items.some((item) => isRunning(item.state));
  if (running === warning || typeof window === 'undefined') return;
  warning = running;
  if (running) window.addEventListener('beforeunload', warnBeforeLeaving);
  else window.removeEventListener('beforeunload', warnBeforeLeaving);
});

/** Files picked in this page's life; a reload loses them (the admin picks the movie again). */
const files = new Map<string, { movie: File | null; thumbnail: Blob | null }>();
const running = new Map<string, AbortController>();

let records: UploadRecords = typeof indexedDB === 'undefined' ? memoryRecords() : indexedDbRecords;

function upsert(record: StoredUpload): void {
  useUploads.setState((state) => {
    const index = state.items.findIndex((item) => item.id === record.id);
    if (index === -1) return { items: [...state.items, record] };
    const items = [...state.items];
    items[index] = record;
    return { items };
  });
}

function remove(id: string): void {
  useUploads.setState((state) => ({ items: state.items.filter((item) => item.id !== id) }));
}

const deps = (): UploadDeps => ({
  api: {
    uploadUrl: (body) => api(contracts.movies.adminUploadUrl, { body }),
    partUrls: (body) => api(contracts.movies.adminMultipartPartUrls, { body }),
    complete: async (body) => {
      await api(contracts.movies.adminMultipartComplete, { body });
    },
    abort: async (body) => {
      await api(contracts.movies.adminMultipartAbort, { body });
    },
    saveMovie: async (body) => (await api(contracts.movies.adminCreateMovie, { body })).movie,
  },
  put: xhrPut,
  records,
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    }),
  now: () => performance.now(),
  onChange: upsert,
});

/** Starts the next queued item when nothing runs. */
function pump(): void {
  if (running.size > 0) return;
  const next = useUploads.getState().items.find((item) => item.state.status === 'queued');
  if (!next) return;
  const controller = new AbortController();
  running.set(next.id, controller);
  const picked = files.get(next.id) ?? { movie: null, thumbnail: null };
  const run = () => runUpload(deps(), next, picked, controller.signal);
  // One tab runs an upload: another tab of the console that also lists it leaves it to the one holding the lock.
  const owned: Promise<StoredUpload | null> =
    typeof navigator !== 'undefined' && navigator.locks
      ? navigator.locks.request(LOCKS.upload(next.id), { ifAvailable: true }, (lock) => (lock ? run() : null))
      : run();
  void owned
    .then(async (done) => {
      if (!done) {
        remove(next.id);
        return;
      }
      if (done.state.status === 'completed') {
        await records.delete(done.id);
        files.delete(done.id);
        const n = done.form.planIds.length;
        toast.success('Upload Successful', `${done.movie.name} has been uploaded and ${attachedToPlans(n)}.`);
        void queryClient.invalidateQueries({ queryKey: queryKeys.adminMovies });
        void queryClient.invalidateQueries({ queryKey: queryKeys.movies });
      } else if (done.state.status === 'failed') {
        toast.error(
          'Upload Failed',
          `An error occurred while uploading ${done.movie.name}: ${done.state.errorMessage ?? 'Unknown error'}`,
        );
      }
    })
    .catch(() => {
      /* cancelled: cancel() already cleaned up */
    })
    .finally(() => {
      running.delete(next.id);
      pump();
    });
}

/** Queues a new upload from the form; returns its id. */
export async function enqueueUpload(form: UploadForm, movie: File, thumbnail: File | null): Promise<string> {
  const record: StoredUpload = {
    id: crypto.randomUUID(),
    createdAt: Date.now(),
    form,
    movie: { ...identityOf(movie), type: movie.type },
    thumbnail: thumbnail ? { name: thumbnail.name, type: thumbnail.type, blob: thumbnail } : null,
    thumbnailKey: null,
    movieKey: null,
    multipart: null,
    movieStored: false,
    state: { ...initialUploadState, totalBytes: movie.size },
  };
  files.set(record.id, { movie, thumbnail });
  try {
    await records.put(record);
  } catch {
    // IndexedDB refused (quota, private window): the upload still runs, it just cannot survive a reload.
    records = memoryRecords();
  }
  upsert(record);
  pump();
  return record.id;
}

function change(id: string, update: (record: StoredUpload) => StoredUpload): StoredUpload | null {
  const current = useUploads.getState().items.find((item) => item.id === id);
  if (!current) return null;
  const next = update(current);
  upsert(next);
  void records.put(next).catch(() => {});
  return next;
}

export function retryUpload(id: string): void {
  const next = change(id, (record) => {
    const retried = { ...record, state: transition(record.state, { type: 'retry' }) };
    const needsFile = !record.movieStored && !files.get(id)?.movie;
    return needsFile ? { ...retried, state: transition(retried.state, { type: 'file-lost' }) } : retried;
  });
  if (next) pump();
}

/** The admin picked the movie again after a reload: it must be the same file. Returns an error to show, or null. */
export function provideFile(id: string, file: File): string | null {
  const item = useUploads.getState().items.find((candidate) => candidate.id === id);
  if (!item) return null;
  if (!sameFile(item.movie, identityOf(file))) {
    return `That is not the same file. Pick ${item.movie.name} (${(item.movie.size / 1024 ** 2).toFixed(1)} MB) to carry on.`;
  }
  files.set(id, { movie: file, thumbnail: files.get(id)?.thumbnail ?? null });
  change(id, (record) => ({ ...record, state: transition(record.state, { type: 'file-found' }) }));
  pump();
  return null;
}

export async function cancelUpload(id: string): Promise<void> {
  const item = useUploads.getState().items.find((candidate) => candidate.id === id);
  running.get(id)?.abort(new DOMException('Cancelled', 'AbortError'));
  remove(id);
  files.delete(id);
  await records.delete(id).catch(() => {});
  if (item) await abortStored(deps(), item).catch(() => {});
}

/** Completed and cancelled rows leave the list when the admin dismisses them. */
export function dismissUpload(id: string): void {
  remove(id);
}

let loading: Promise<void> | null = null;

/** Reads unfinished uploads once per page life: those that still need the movie wait for it to be picked again. */
export function loadUnfinishedUploads(): Promise<void> {
  loading ??= (async () => {
    let stored: StoredUpload[] = [];
    try {
      stored = await records.list();
    } catch {
      /* no IndexedDB: nothing to resume */
    }
    for (const record of stored) {
      if (useUploads.getState().items.some((item) => item.id === record.id)) continue;
      let state = record.state;
      if (state.status === 'uploading' || state.status === 'processing' || state.status === 'queued') {
        // The run stopped with the page; without the movie it cannot go on until the admin picks it again.
        state = record.movieStored ? { ...state, status: 'queued' } : transition(state, { type: 'file-lost' });
      }
      upsert({ ...record, state: { ...state, speedBps: 0 } });
    }
    useUploads.setState({ loaded: true });
    pump();
  })();
  return loading;
}
