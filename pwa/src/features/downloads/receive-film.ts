import { contracts, FILM_CHUNK_BYTES, type FilmManifestClaims } from '@filamu/shared';
import { api, isApiError } from '../../lib/api.ts';
import { STORAGE_KEYS } from '../../lib/storage-names.ts';
import { keepLicence, phoneKey } from '../licences/store.ts';
import { movieFileHandle, removeMovieFile, storageFigures } from './engine/opfs.ts';
import { type LocalDownload, newDownload, recordKey } from './engine/record.ts';
import { getDownload, putDownload } from './engine/store.ts';
import { chunkHashOf, verifyManifestSignature } from './film-file.ts';
import { signingKey } from './film-manifest.ts';
import { capableSmall, playsHere } from './hevc-support.ts';
import { safeFileTitle } from './keep-copy.ts';
import { downloadsT } from './messages.ts';

/**
 * A film arriving from another phone (issue 19/22), whichever way it came — a `.filamu` file or a hotspot: the rules
 * it is admitted under, how its checked chunks are kept, and how it becomes a download of this phone with its own
 * licence. One place, so a film received over the air and one opened from a file are held to exactly the same rules.
 */

export type ReceiveResult =
  | { kind: 'ready'; title: string }
  /** The person chose not to keep it (an English film that would wait for the Kinayuganda rule). */
  | { kind: 'cancelled' }
  /**
   * Kept on the phone; `why` says what it waits for before it plays (`needsPlan`: a plan, which the person can buy;
   * `offline`: Filamu could not be reached, so it can be unlocked by USSD, decision 0249).
   */
  | { kind: 'waiting'; movieId: string; title: string; why: string; needsPlan: boolean; offline: boolean }
  | { kind: 'refused'; message: string };

export interface AdmitOptions {
  /**
   * Asked before an English film is taken while the Kinayuganda rule still locks English (issue 19/22 §4): resolves
   * true to keep the film waiting on the phone, false to leave it.
   */
  keepLockedEnglish?: (stillToGo: number) => Promise<boolean>;
  /** Bytes of this film already on the phone from an earlier, broken-off transfer: they need no more space. */
  alreadyHeld?: number;
}

const NOT_SIGNED = 'This film was not made by Filamu, or it was changed on the way. Ask the sender for it again.';
const CANNOT_PLAY =
  'This film is in a format this phone cannot play (a Small for phones that play HEVC). Download it on this phone ' +
  'instead: Filamu gives each phone a size it plays.';
const NO_LICENCE_OFFLINE = 'It plays once this phone is online and signed in: its licence takes a few KB of data.';

/**
 * How many Kinayuganda films the person still has to download before an English one unlocks, or null when English is
 * unlocked — or when the phone cannot ask (offline): the licence request says so then, after the film arrived.
 */
async function kinayugandaStillToGo(): Promise<number | null> {
  try {
    const status = await api(contracts.downloads.kinayugandaStatus, {}, { redirectOn401: false });
    return status.hasDownloadedAllKinayuganda ? null : Math.max(1, status.required - status.completed);
  } catch {
    return null;
  }
}

/**
 * Whether a film may come onto this phone, asked before any of its bytes are taken: null to go on, else what to tell
 * the person (already here, already downloading, not Filamu's, a format this phone cannot play, no space, or they
 * chose not to).
 */
export async function admitReceivedFilm(
  claims: FilmManifestClaims,
  manifest: string,
  ownerId: string,
  { keepLockedEnglish, alreadyHeld = 0 }: AdmitOptions = {},
): Promise<ReceiveResult | null> {
  // Checked here when the phone has the key; the server checks it again before any licence.
  const jwk = await signingKey();
  if (jwk && !(await verifyManifestSignature(manifest, jwk))) return { kind: 'refused', message: NOT_SIGNED };

  const held = await getDownload(recordKey(ownerId, claims.mid));
  if (held?.state === 'complete') return { kind: 'ready', title: held.title };
  if (held && held.state !== 'cancelled') {
    return {
      kind: 'refused',
      message: downloadsT('downloads.file.alreadyDownloading', { title: held.title }),
    };
  }
  // The HEVC Small from a phone that plays it: this phone's decoder is asked before a byte is copied (decision 0252).
  if (!playsHere(claims.size, await capableSmall())) return { kind: 'refused', message: CANNOT_PLAY };
  if (claims.category === 'English' && keepLockedEnglish) {
    const stillToGo = await kinayugandaStillToGo();
    if (stillToGo !== null && !(await keepLockedEnglish(stillToGo))) return { kind: 'cancelled' };
  }
  const { free } = await storageFigures();
  if (free !== null && free < claims.bytes - alreadyHeld) {
    return { kind: 'refused', message: downloadsT('downloads.file.noSpace', { title: claims.title }) };
  }
  return null;
}

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

/** The film, whole and checked on disk, becomes a download of this phone; then its licence is asked for. */
export async function finishReceivedFilm(
  ownerId: string,
  claims: FilmManifestClaims,
  manifest: string,
  onLicensing?: () => void,
): Promise<Exclude<ReceiveResult, { kind: 'cancelled' }>> {
  const record = receivedRecord(ownerId, claims, manifest, Date.now());
  await putDownload(record);
  forgetPosition(record.key);
  onLicensing?.();
  try {
    await fetchReceivedLicence(record);
    return { kind: 'ready', title: claims.title };
  } catch (error) {
    const offline = !(isApiError(error) && error.status > 0);
    const why = isApiError(error) && error.status > 0 ? error.message : NO_LICENCE_OFFLINE;
    const needsPlan = isApiError(error) && (error.code === 'subscription_required' || error.code === 'forbidden');
    return { kind: 'waiting', movieId: claims.mid, title: claims.title, why, needsPlan, offline };
  }
}

// ── Half-received films: what is kept, to go on from after a drop ────────────────────────────────────────────────

type Positions = Record<string, { nonce: string; bytes: number }>;

function positions(): Positions {
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(STORAGE_KEYS.receiving) ?? '{}');
    return typeof kept === 'object' && kept !== null ? (kept as Positions) : {};
  } catch {
    return {};
  }
}

function keepPosition(key: string, nonce: string, bytes: number): void {
  localStorage.setItem(STORAGE_KEYS.receiving, JSON.stringify({ ...positions(), [key]: { nonce, bytes } }));
}

function forgetPosition(key: string): void {
  const { [key]: _gone, ...rest } = positions();
  localStorage.setItem(STORAGE_KEYS.receiving, JSON.stringify(rest));
}

/**
 * Where a film half received before goes on from: the bytes written and committed to disk, if they are of this very
 * file (same nonce) — a chunk boundary, since only whole checked chunks are written.
 */
export function receivedSoFar(ownerId: string, claims: FilmManifestClaims): number {
  const kept = positions()[recordKey(ownerId, claims.mid)];
  if (!kept || kept.nonce !== claims.nonce) return 0;
  if (kept.bytes >= claims.bytes) return claims.bytes;
  return kept.bytes - (kept.bytes % FILM_CHUNK_BYTES);
}

/**
 * A film arriving chunk by chunk, in order: each 1 MiB chunk is hashed against the manifest and written only when it
 * matches. Written through one writable stream, which the browser commits to disk on `keep` (a drop, the page
 * hidden) and at the end — a transfer cut off by the phone killing the page goes on from the last commit.
 */
export class ReceivingFilm {
  private writable: FileSystemWritableFileStream | null = null;
  /** Bytes checked and written, committed or not. */
  written: number;

  private constructor(
    readonly key: string,
    readonly claims: FilmManifestClaims,
    from: number,
  ) {
    this.written = from;
  }

  /** Opens the film's file on this phone, keeping what an earlier transfer committed (`receivedSoFar`). */
  static async open(ownerId: string, claims: FilmManifestClaims): Promise<ReceivingFilm> {
    const key = recordKey(ownerId, claims.mid);
    const from = receivedSoFar(ownerId, claims);
    if (from === 0) {
      forgetPosition(key);
      await removeMovieFile(key);
    }
    return new ReceivingFilm(key, claims, from);
  }

  /** Writes the chunk that starts at `this.written` if its hash matches; false (nothing written) when it does not. */
  async write(chunk: Uint8Array<ArrayBuffer>): Promise<boolean> {
    const index = this.written / FILM_CHUNK_BYTES;
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', chunk));
    const expected = chunkHashOf(this.claims, index);
    if (digest.length !== expected.length || digest.some((byte, i) => byte !== expected[i])) return false;
    this.writable ??= await (await movieFileHandle(this.key, true)).createWritable({ keepExistingData: true });
    await this.writable.write({ type: 'write', position: this.written, data: chunk });
    this.written += chunk.byteLength;
    return true;
  }

  get complete(): boolean {
    return this.written === this.claims.bytes;
  }

  /** Commits what is written so far: a later transfer goes on from here. */
  async keep(): Promise<void> {
    const writable = this.writable;
    this.writable = null;
    if (!writable) return;
    await writable.close();
    keepPosition(this.key, this.claims.nonce, this.written);
  }
}
