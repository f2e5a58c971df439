import { contracts, type DownloadSize, type MovieRating, type MovieSize, type UserMovie } from '@filamu/shared';
import { api, isApiError } from '../../lib/api.ts';
import { queryClient, queryKeys } from '../../lib/query-client.ts';
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
import { reasonWords } from './describe.ts';
import { downloadsT } from './messages.ts';
import { createDownload, deleteDownload, deleteSubtitles, dispatch, getDownload, putDownload } from './engine/store.ts';
import { abortBackground, backgroundOptedIn, startInBackground } from './background.ts';
import { spaceVerdict } from './estimates.ts';
import { grantRefusal } from './refusals.ts';
import { kick, useDownloadsStore } from './manager.ts';
import { currentOwnerId, shownOwnerId } from '../../lib/owner.ts';
import { keepLicence, phoneKey } from '../licences/store.ts';

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

export function recordInput(ownerId: string, movie: DownloadableMovie, size?: DownloadSize): NewDownloadInput {
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
    toast.error(
      downloadsT('downloads.toast.noSpace'),
      downloadsT('downloads.toast.noSpace.text', { title: movie.title }),
    );
    return false;
  }
  void navigator.storage?.persist?.().catch(() => false);

  setChecking(movie.id, true);
  const background = backgroundOptedIn();
  let recorded = false;
  try {
    // A Background Fetch job cannot ask for a fresh link, so it gets the longer-lived one.
    // The phone's licence key goes with the request, so the film's licence comes with its link (decision 0230).
    const devicePublicKey = await phoneKey().then(
      (phone) => phone.spki,
      () => undefined,
    );
    const grant = await api(contracts.downloads.downloadUrl, {
      body: {
        movieId: movie.id,
        purpose: background ? 'background' : 'foreground',
        redownload,
        size: options.size,
        devicePublicKey,
      },
    });
    if (grant.licence) await keepLicence(ownerId, grant.licence).catch(() => undefined);
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
      fileNonce: grant.fileNonce,
      fileKind: grant.size,
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
      toast.info(
        downloadsT('downloads.reason.waitingNetwork'),
        downloadsT('downloads.toast.waitingNetwork.text', { title: movie.title }),
      );
      recorded = true;
    } else if (isApiError(error) && error.status === 429 && !redownload) {
      // Too many links asked for (ADR 0061): keep the intent too; the engine waits out Retry-After, then asks.
      const message = rateLimitedMessage((error.retryAfter ?? 0) * 1000);
      const record = newDownload(input, Date.now());
      await createDownload({ ...record, state: 'waiting-network', message });
      toast.info(downloadsT('downloads.toast.queued'), `${movie.title}: ${reasonWords(message)}.`);
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

/** The record of a film on this phone: the signed-in person's, or signed out the kept person's (decision 0233). */
function keyOf(movieId: string): string | null {
  const ownerId = shownOwnerId();
  return ownerId ? recordKey(ownerId, movieId) : null;
}

export async function pauseDownload(movieId: string): Promise<void> {
  const key = keyOf(movieId);
  if (!key) return;
  const record = await dispatch(key, { type: 'pause' });
  if (record?.engine === 'bgfetch') await abortBackground(key);
  if (record?.state === 'paused') {
    toast.info(
      downloadsT('downloads.toast.paused'),
      downloadsT('downloads.toast.paused.text', { title: record.title }),
    );
  } else toast.error(downloadsT('downloads.toast.pauseFailed'));
}

export async function resumeDownload(movieId: string): Promise<void> {
  const key = keyOf(movieId);
  if (!key) return;
  const record = await dispatch(key, { type: 'resume' });
  if (record?.state === 'queued') toast.info(downloadsT('downloads.toast.resuming'), record.title);
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
