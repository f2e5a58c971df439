import { contracts, TONIGHT_QUEUE_MAX, type DownloadSize, type TonightQueueItem } from '@filamu/shared';
import { api } from '../../../lib/api.ts';
import { currentOwnerId } from '../../../lib/owner.ts';
import { useSessionStore } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast.ts';
import { recordInput, type DownloadableMovie } from '../actions.ts';
import { abortBackground } from '../background.ts';
import { newDownload, recordKey, type LocalDownload } from '../engine/record.ts';
import { createDownload, dispatch, getDownload, listDownloads, putDownload } from '../engine/store.ts';
import { downloadsNightT } from './messages.ts';

/**
 * Download tonight (issue 21/22 §1): the queue lives on the phone, as download records that wait paused for the night
 * window (`nightOnly`); no link is asked for until the window opens, so nothing is fetched, or counted, before it. The
 * server holds a copy of the list only to know who to remind when the window opens.
 */
export const WAITING_FOR_TONIGHT = "Waiting for tonight's night bundle";

/** Tonight's films still to fetch: queued for tonight and not finished. */
export function isTonightFilm(record: LocalDownload): boolean {
  return record.nightOnly === true && record.state !== 'complete' && record.state !== 'cancelled';
}

/** The server's copy of tonight's list (signed-in subscribers only; a failure only costs the reminder). */
export async function mirrorTonight(): Promise<void> {
  const ownerId = currentOwnerId();
  const session = useSessionStore.getState();
  if (!ownerId || session.kind !== 'user' || !session.token) return;
  const items: TonightQueueItem[] = (await listDownloads(ownerId))
    .filter(isTonightFilm)
    .flatMap((r) => (r.sizeChoice ? [{ movieId: r.movieId, size: r.sizeChoice }] : []))
    .slice(0, TONIGHT_QUEUE_MAX);
  await api(contracts.nightBundle.setMyTonight, { body: { items } }).catch(() => undefined);
}

/** A film already on its way stops where it is and waits; the browser's Background Fetch, if it had it, lets it go. */
async function waitForTonight(record: LocalDownload): Promise<LocalDownload | undefined> {
  const waiting = await dispatch(record.key, { type: 'tonight', message: WAITING_FOR_TONIGHT });
  if (waiting?.nightOnly && record.engine === 'bgfetch') await abortBackground(record.key);
  return waiting;
}

/**
 * Queues a film for tonight at the size chosen; a film already on its way (paused, waiting for the network) keeps its
 * bytes and waits for tonight instead. Resolves true when the film is in tonight's queue.
 */
export async function queueForTonight(movie: DownloadableMovie, size: DownloadSize): Promise<boolean> {
  const ownerId = currentOwnerId();
  if (!ownerId) return false;
  const key = recordKey(ownerId, movie.id);
  const existing = await getDownload(key);
  if (existing?.state === 'complete') {
    toast.info(
      downloadsNightT('downloads-night.queue.already'),
      downloadsNightT('downloads-night.queue.already.text', { title: movie.title }),
    );
    return false;
  }
  const waiting = (await listDownloads(ownerId)).filter(isTonightFilm);
  if (!waiting.some((r) => r.key === key) && waiting.length >= TONIGHT_QUEUE_MAX) {
    toast.error(
      downloadsNightT('downloads-night.queue.full'),
      downloadsNightT('downloads-night.queue.full.text', { max: TONIGHT_QUEUE_MAX }),
    );
    return false;
  }
  let queued: LocalDownload | undefined;
  if (existing && existing.state !== 'cancelled') {
    queued = await waitForTonight(existing);
  } else {
    const fresh = newDownload(recordInput(ownerId, movie, size), Date.now());
    const record: LocalDownload = { ...fresh, state: 'paused', message: WAITING_FOR_TONIGHT, nightOnly: true };
    // A cancelled record of the same film is replaced: its bytes were thrown away with it.
    if (existing) await putDownload(record);
    else await createDownload(record);
    queued = record;
  }
  if (!queued?.nightOnly) {
    toast.error(
      downloadsNightT('downloads-night.queue.failed'),
      downloadsNightT('downloads-night.queue.failed.text', { title: movie.title }),
    );
    return false;
  }
  toast.info(
    downloadsNightT('downloads-night.queue.queued'),
    downloadsNightT('downloads-night.queue.queued.text', { title: movie.title }),
  );
  void mirrorTonight();
  return true;
}

/** My Downloads' Download tonight: a film already on its way stops (its bytes kept) and waits for the night window. */
export async function moveToTonight(record: LocalDownload): Promise<void> {
  const moved = await waitForTonight(record);
  if (!moved?.nightOnly) {
    return void toast.error(
      downloadsNightT('downloads-night.queue.failed'),
      downloadsNightT('downloads-night.tryAgain'),
    );
  }
  toast.info(
    downloadsNightT('downloads-night.queue.queued'),
    downloadsNightT('downloads-night.queue.queued.text', { title: record.title }),
  );
  void mirrorTonight();
}
