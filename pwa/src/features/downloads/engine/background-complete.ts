import {
  keyOfBackgroundId,
  type BackgroundFetchEvent,
  type BackgroundFetchUpdateUIEvent,
} from './background-fetch-types.ts';
import { movieFileHandle } from './opfs.ts';
import { dispatch, getDownload } from './store.ts';
import { LOCKS } from '../../../lib/storage-names.ts';

/**
 * The service worker's part of a Background Fetch: when the browser has the whole movie, copy it into the same
 * OPFS file the in-app engine uses and complete the record; when it gives up, hand the download back to the
 * in-app engine. The server hears of completion from the engine the next time the app opens.
 */
export async function onBackgroundSuccess(event: BackgroundFetchUpdateUIEvent): Promise<void> {
  const key = keyOfBackgroundId(event.registration.id);
  if (!key) return;
  let title = 'Your movie';
  const ok = await navigator.locks.request(LOCKS.download(key), async () => {
    const record = await getDownload(key);
    if (!record || record.state === 'complete' || record.state === 'cancelled') return false;
    title = record.title;
    const [entry] = await event.registration.matchAll();
    const response = entry ? await entry.responseReady : null;
    if (!response?.ok || !response.body) {
      await dispatch(key, { type: 'background-ended', paused: false });
      return false;
    }
    const handle = await movieFileHandle(key, true);
    // One pass from the browser's store to disk, never the whole movie in memory.
    await response.body.pipeTo(await handle.createWritable());
    const size = (await handle.getFile()).size;
    if (size !== record.size) {
      await dispatch(key, { type: 'background-ended', paused: false });
      return false;
    }
    await dispatch(key, {
      type: 'committed',
      committed: size,
      etag: response.headers.get('ETag'),
      // The browser fetched the whole file, on top of whatever the in-app engine fetched before it took over.
      bytesFromNetwork: record.bytesFromNetwork + size,
    });
    await dispatch(key, { type: 'bytes-done' });
    await dispatch(key, { type: 'verified' });
    return true;
  });
  await event.updateUI({ title: ok ? `${title} is ready to watch` : `${title} will finish in the app` });
}

export async function onBackgroundFail(event: BackgroundFetchEvent, paused: boolean): Promise<void> {
  const key = keyOfBackgroundId(event.registration.id);
  if (!key) return;
  await dispatch(key, {
    type: 'background-ended',
    paused,
    message: paused ? undefined : 'Continuing in the app: open Filamu to finish this download.',
    received: event.registration.downloaded,
  });
  if (!paused && 'updateUI' in event) {
    await (event as BackgroundFetchUpdateUIEvent).updateUI({ title: 'Open Filamu to finish the download' });
  }
}
