import { contracts } from '@filamu/shared';
import { useEffect, useState } from 'react';
import { api } from '../../../lib/api.ts';
import { queryClient, queryKeys } from '../../../lib/query-client.ts';
import { licenceStanding } from '../../licences/film-key.ts';
import { keepLicence, phoneKey } from '../../licences/store.ts';
import { movieFile } from '../engine/opfs.ts';
import type { LocalDownload } from '../engine/record.ts';
import { fetchReceivedLicence } from '../receive-film.ts';
import { playAddress } from './play-address.ts';
import { type CannotPlay, cannotPlayOf, cannotPlayOfLicenceError } from './play-words.ts';

/**
 * Before an encrypted film is given to the player (decision 0232), the Play screen checks what the service worker
 * will need — the same licence standing it reads, the file, and a service worker in control of the page — so what
 * stops it is said in words, not met by the player as an error.
 */
export type Playable = { state: 'checking' } | { state: 'ready'; src: string } | { state: 'cannot'; why: CannotPlay };

/** How long the page waits for a service worker that is installing before it asks for a reload. */
const WORKER_WAIT_MS = 5000;

/** Whether a service worker controls this page now, or does within a few seconds (a first visit, an update). */
function workerControls(): Promise<boolean> {
  const workers = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  if (!workers) return Promise.resolve(false);
  if (workers.controller) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      workers.removeEventListener('controllerchange', done);
      resolve(workers.controller !== null);
    };
    const timer = setTimeout(done, WORKER_WAIT_MS);
    workers.addEventListener('controllerchange', done);
    void workers.ready.then(() => workers.controller && done());
  });
}

/** Asks Filamu for the film's licence for this phone and keeps it; `move` brings it from another phone. */
export async function fetchLicence(record: LocalDownload, move: boolean): Promise<void> {
  // A film received from another phone asks as one (its manifest is its proof); once it is the person's download, a
  // move from another phone is asked like any other.
  if (record.received && !move) return fetchReceivedLicence(record);
  const { spki } = await phoneKey();
  const licence = await api(contracts.licences.licenceOfDownloaded, {
    body: { movieId: record.movieId, devicePublicKey: spki, move },
  });
  await keepLicence(record.ownerId, licence);
  if (move) void queryClient.invalidateQueries({ queryKey: queryKeys.redownloads });
}

async function check(record: LocalDownload): Promise<Playable> {
  let standing = await licenceStanding(record.ownerId, record.movieId);
  if (!standing.playable && standing.why === 'none') {
    // A licence that failed to be kept with the download (decision 0230) is asked for again, once, here.
    try {
      await fetchLicence(record, false);
    } catch (error) {
      return { state: 'cannot', why: cannotPlayOfLicenceError(error) };
    }
    standing = await licenceStanding(record.ownerId, record.movieId);
  }
  if (!standing.playable) return { state: 'cannot', why: cannotPlayOf(standing.why) };
  // Unlocked by USSD with no data (decision 0249): the licence the server issued then is fetched once online.
  if (!standing.stored && navigator.onLine) void fetchLicence(record, false).catch(() => undefined);
  const size = await movieFile(record.key).then(
    (file) => file.size,
    () => 0,
  );
  if (size === 0) return { state: 'cannot', why: 'missing' };
  if (!(await workerControls())) return { state: 'cannot', why: 'no-worker' };
  return { state: 'ready', src: playAddress(record.key) };
}

/** The film's standing, checked again each time `attempt` changes (Try again, a licence brought here). */
export function usePlayable(record: LocalDownload, attempt: number): Playable {
  const checkId = `${record.key}|${record.fileNonce ?? ''}|${attempt}`;
  const [checked, setChecked] = useState<{ checkId: string; playable: Playable } | null>(null);
  useEffect(() => {
    let alive = true;
    void check(record)
      .catch((): Playable => ({ state: 'cannot', why: 'broken-copy' }))
      .then((playable) => alive && setChecked({ checkId, playable }));
    return () => {
      alive = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the record changes with every progress tick elsewhere; its key and nonce are what the check reads
  }, [checkId]);
  return checked?.checkId === checkId ? checked.playable : { state: 'checking' };
}
