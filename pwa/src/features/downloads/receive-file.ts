import { contracts, type FilmManifestClaims } from '@filamu/shared';
import { api, isApiError } from '../../lib/api.ts';
import { keepLicence, phoneKey } from '../licences/store.ts';
import { movieFileHandle, removeMovieFile, storageFigures } from './engine/opfs.ts';
import { type LocalDownload, newDownload, recordKey } from './engine/record.ts';
import { getDownload, putDownload } from './engine/store.ts';
import { copyVerifiedFilm, readFilmFile, verifyManifestSignature } from './film-file.ts';
import { signingKey } from './film-manifest.ts';
import { safeFileTitle } from './keep-copy.ts';

/**
 * "Open a film file" (issue 19/22, decision 0243): a `.filamu` file a friend or an agent sent through another app is
 * checked — its manifest signed by Filamu, then every 1 MiB chunk against it as it is copied into the app's storage —
 * and kept like a download. Its licence is then asked for as a received film, under the same rules as a download; a
 * film that cannot have one yet (no plan, no connection) waits on the phone and plays once it does.
 */

export type ReceiveStep =
  { step: 'checking' } | { step: 'copying'; doneBytes: number; totalBytes: number } | { step: 'licensing' };

export type ReceiveResult =
  | { kind: 'ready'; title: string }
  /** The person chose not to keep it (an English film that would wait for the Kinayuganda rule). */
  | { kind: 'cancelled' }
  /** Kept on the phone; `why` says what it waits for before it plays (`needsPlan`: a plan, which the person can buy). */
  | { kind: 'waiting'; movieId: string; title: string; why: string; needsPlan: boolean }
  | { kind: 'refused'; message: string };

const NOT_SIGNED = 'This film file was not made by Filamu, or it was changed on the way. Ask the sender for it again.';
const NO_LICENCE_OFFLINE = 'It plays once this phone is online and signed in: its licence takes a few KB of data.';

/** The record of a film received whole: complete, nothing fetched, its manifest kept so it can be sent on. */
function receivedRecord(ownerId: string, claims: FilmManifestClaims, manifest: string, now: number): LocalDownload {
  const record = newDownload(
    {
      ownerId,
      movieId: claims.mid,
      title: claims.title,
      category: claims.category,
      rating: claims.rating,
      vj: claims.vj,
      thumbnailUrl: null,
      size: claims.bytes,
      sizeChoice: claims.size,
      fileName: `${safeFileTitle(claims.title)}.filamu`,
    },
    now,
  );
  return {
    ...record,
    fileNonce: claims.nonce,
    fileKind: claims.size,
    manifest,
    received: true,
    committed: claims.bytes,
    state: 'complete',
    reportedComplete: true,
    completedAt: now,
  };
}

/** The received film's licence for this phone; throws the server's refusal (an ApiError) or a network error. */
export async function fetchReceivedLicence(record: Pick<LocalDownload, 'ownerId' | 'manifest'>): Promise<void> {
  if (!record.manifest) throw new Error('A received film keeps its manifest.');
  const { spki } = await phoneKey();
  const licence = await api(
    contracts.filmFiles.receivedLicence,
    { body: { manifest: record.manifest, devicePublicKey: spki } },
    { redirectOn401: false },
  );
  await keepLicence(record.ownerId, licence);
}

/**
 * How many Kinayuganda films the person still has to download before an English one unlocks, or null when English is
 * unlocked — or when the phone cannot ask (offline): the licence request says so then, after the copy.
 */
async function kinayugandaStillToGo(): Promise<number | null> {
  try {
    const status = await api(contracts.downloads.kinayugandaStatus, {}, { redirectOn401: false });
    return status.hasDownloadedAllKinayuganda ? null : Math.max(1, status.required - status.completed);
  } catch {
    return null;
  }
}

export interface ReceiveOptions {
  signal?: AbortSignal;
  /**
   * Asked before an English film is copied while the Kinayuganda rule still locks English (issue 19/22 §4): resolves
   * true to keep the film waiting on the phone, false to leave it.
   */
  keepLockedEnglish?: (stillToGo: number) => Promise<boolean>;
}

export async function receiveFilmFile(
  file: File,
  ownerId: string,
  onStep: (step: ReceiveStep) => void,
  { signal, keepLockedEnglish }: ReceiveOptions = {},
): Promise<ReceiveResult> {
  onStep({ step: 'checking' });
  const read = await readFilmFile(file, file.name);
  if (!read.ok) return { kind: 'refused', message: read.problem.message };
  const { claims, manifest } = read;
  // Checked here when the phone has the key; the server checks it again before any licence.
  const jwk = await signingKey();
  if (jwk && !(await verifyManifestSignature(manifest, jwk))) return { kind: 'refused', message: NOT_SIGNED };

  const key = recordKey(ownerId, claims.mid);
  const held = await getDownload(key);
  if (held?.state === 'complete') return { kind: 'ready', title: held.title };
  if (held && held.state !== 'cancelled') {
    return {
      kind: 'refused',
      message: `${held.title} is already downloading on this phone. Cancel that download first to open this file.`,
    };
  }
  if (claims.category === 'English' && keepLockedEnglish) {
    const stillToGo = await kinayugandaStillToGo();
    if (stillToGo !== null && !(await keepLockedEnglish(stillToGo))) return { kind: 'cancelled' };
  }
  const { free } = await storageFigures();
  if (free !== null && free < claims.bytes) {
    return { kind: 'refused', message: `Not enough space on this phone for ${claims.title}. Free up space first.` };
  }

  await removeMovieFile(key);
  const writable = await (await movieFileHandle(key, true)).createWritable();
  let copied: Awaited<ReturnType<typeof copyVerifiedFilm>>;
  try {
    copied = await copyVerifiedFilm(
      file,
      read,
      (chunk, position) => writable.write({ type: 'write', position, data: chunk }),
      {
        signal,
        onProgress: (doneBytes) => onStep({ step: 'copying', doneBytes, totalBytes: claims.bytes }),
      },
    );
    await writable.close();
  } catch (error) {
    await writable.abort().catch(() => undefined);
    await removeMovieFile(key);
    throw error;
  }
  if (!copied.ok) {
    await removeMovieFile(key);
    return { kind: 'refused', message: copied.problem.message };
  }
  const record = receivedRecord(ownerId, claims, manifest, Date.now());
  await putDownload(record);

  onStep({ step: 'licensing' });
  try {
    await fetchReceivedLicence(record);
    return { kind: 'ready', title: claims.title };
  } catch (error) {
    const why = isApiError(error) && error.status > 0 ? error.message : NO_LICENCE_OFFLINE;
    const needsPlan = isApiError(error) && (error.code === 'subscription_required' || error.code === 'forbidden');
    return { kind: 'waiting', movieId: claims.mid, title: claims.title, why, needsPlan };
  }
}
