import {
  backgroundIdOf,
  type BackgroundFetchRegistration,
  type WithBackgroundFetch,
} from './engine/background-fetch-types.ts';
import { LOCKS } from '../../lib/storage-names.ts';
import { SpeedMeter } from '../../lib/transfer/speed-meter.ts';
import type { LocalDownload } from './engine/record.ts';
import { announce, dispatch, listDownloads } from './engine/store.ts';
import { downloadSettings } from './settings.ts';

/**
 * "Keep downloading when the app is closed": on browsers with Background Fetch (Chrome/Edge), and only when the
 * person opted in, a download is handed to the browser's own download service. The in-app engine stays the
 * fallback: a registration that is refused, does not start within 10 s, makes no progress for a minute while
 * online and visible, or fails, goes back to the in-app engine.
 */
const START_TIMEOUT_MS = 10_000;
const NO_PROGRESS_MS = 60_000;

export function backgroundSupported(): boolean {
  return 'serviceWorker' in navigator && 'BackgroundFetchManager' in self;
}

export function backgroundOptedIn(): boolean {
  return backgroundSupported() && downloadSettings().background;
}

function timeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms))]);
}

async function manager() {
  const registration = (await timeout(navigator.serviceWorker.ready, 3000)) as WithBackgroundFetch;
  if (!registration.backgroundFetch) throw new Error('Background Fetch is not available');
  return registration.backgroundFetch;
}

/** Hands a granted download to Background Fetch; false when the in-app engine should run it instead. */
export async function startInBackground(record: LocalDownload, url: string): Promise<boolean> {
  try {
    const fetcher = await manager();
    const id = backgroundIdOf(record.key);
    await (await fetcher.get(id))?.abort();
    const registration = await timeout(
      fetcher.fetch(id, [new Request(url)], {
        title: record.title,
        icons: [{ src: '/icon-192.png', sizes: '192x192', type: 'image/png' }],
        downloadTotal: record.size,
      }),
      START_TIMEOUT_MS,
    );
    await dispatch(record.key, { type: 'background-started' });
    watch(record, registration);
    return true;
  } catch (error) {
    console.warn('Background Fetch unavailable; downloading in the app.', error);
    return false;
  }
}

const watched = new Set<string>();

/** Mirrors a registration's progress to every screen and falls back when it stops moving. */
function watch(record: LocalDownload, registration: BackgroundFetchRegistration): void {
  if (watched.has(record.key)) return;
  watched.add(record.key);
  const speed = new SpeedMeter();
  let lastBytes = registration.downloaded;
  let lastMove = Date.now();
  const onProgress = () => {
    if (registration.downloaded !== lastBytes) {
      lastBytes = registration.downloaded;
      lastMove = Date.now();
    }
    announce({
      type: 'live',
      key: record.key,
      received: registration.downloaded,
      speedBps: speed.sample(Date.now(), registration.downloaded),
    });
    if (registration.result) stop();
  };
  const timer = setInterval(() => {
    const stuck = Date.now() - lastMove > NO_PROGRESS_MS;
    if (stuck && navigator.onLine && document.visibilityState === 'visible') {
      stop();
      void registration.abort().finally(() =>
        dispatch(record.key, {
          type: 'background-ended',
          paused: false,
          message: 'Background download did not start; continuing in the app.',
          received: registration.downloaded,
        }).then(() => announce({ type: 'kick' })),
      );
    }
  }, 5000);
  function stop() {
    clearInterval(timer);
    registration.removeEventListener('progress', onProgress);
    watched.delete(record.key);
  }
  registration.addEventListener('progress', onProgress);
}

/** At app start: re-attach to running background downloads; hand lost ones back to the in-app engine. */
export async function reattachBackground(ownerId: string): Promise<void> {
  const records = (await listDownloads(ownerId)).filter(
    (r) => r.engine === 'bgfetch' && r.state !== 'complete' && r.state !== 'cancelled',
  );
  if (!records.length) return;
  const fetcher = await manager().catch(() => null);
  for (const record of records) {
    const registration = fetcher ? await fetcher.get(backgroundIdOf(record.key)) : undefined;
    if (registration && !registration.result) watch(record, registration);
    else if (!registration) {
      // The service worker holds the download's lock while it stores a finished Background Fetch (whose registration
      // is already gone): wait for it, so a movie being completed is not handed back to the in-app engine. After it,
      // the ending does not apply to a complete record.
      await navigator.locks.request(LOCKS.download(record.key), () =>
        dispatch(record.key, { type: 'background-ended', paused: false }),
      );
    }
  }
  announce({ type: 'kick' });
}

/** Stops the browser's transfer of a download (pause or cancel in the app). */
export async function abortBackground(key: string): Promise<void> {
  try {
    await (await (await manager()).get(backgroundIdOf(key)))?.abort();
  } catch {
    /* nothing to stop */
  }
}
