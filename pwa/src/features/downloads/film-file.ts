import {
  FILM_CHUNK_BYTES,
  FILM_CHUNK_HASH_BYTES,
  FILM_FILE_HEADER_BYTES,
  FILM_FILE_MAGIC,
  FilmManifestClaims,
  MAX_FILM_MANIFEST_BYTES,
  filmChunkCount,
  fromBase64url,
} from '@filamu/shared';

/**
 * The `.filamu` film file (issue 19/22, decision 0243): how a film travels between phones through the apps people
 * already use. An 8-byte magic, the manifest's length (32-bit big-endian), the manifest — a compact JWS (ES256) the
 * server signed, naming the film and the SHA-256 of each 1 MiB chunk — then the film exactly as held, still
 * encrypted. Writing never reads the film; reading looks at the header only, and the film is then copied one chunk at
 * a time, each chunk checked against the manifest before it is written. Nothing here decrypts.
 */

/** Why a film file cannot be opened, with what the person is told. */
export type FilmFileProblem =
  | { kind: 'not-filamu'; message: string }
  | { kind: 'older-format'; message: string }
  /** The magic with a later version than 1: made by a newer app than this one. */
  | { kind: 'newer-format'; message: string }
  | { kind: 'damaged'; message: string }
  /** The header is sound but the film stops short: a transfer that was cut off. */
  | { kind: 'incomplete'; message: string; arrivedBytes: number; filmBytes: number }
  /** `part` counts from 1, as the person reads it. */
  | { kind: 'bad-chunk'; message: string; part: number; of: number };

export type FilmFileRead =
  | { ok: true; manifest: string; claims: FilmManifestClaims; filmOffset: number }
  | { ok: false; problem: FilmFileProblem };

const NOT_FILAMU: FilmFileProblem = { kind: 'not-filamu', message: 'This is not a Filamu film file.' };
const OLDER_FORMAT: FilmFileProblem = {
  kind: 'older-format',
  message: 'This file is from an older Filamu. Download the film again, or ask the sender for a new copy.',
};
const NEWER_FORMAT: FilmFileProblem = {
  kind: 'newer-format',
  message: 'This film file needs a newer Filamu. Open Filamu once while online so it can update, then try again.',
};
const DAMAGED: FilmFileProblem = {
  kind: 'damaged',
  message: 'This film file is damaged or incomplete. Ask the sender for it again.',
};

/** Base64url, as a JWS's three parts are; a length bound comes first, so this never sees a long string. */
const BASE64URL = /^[\w-]+$/;

/** The three parts of a compact JWS, or null when `token` is not one. */
function jwsParts(token: string): [string, string, string] | null {
  if (token.length === 0 || token.length > MAX_FILM_MANIFEST_BYTES) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) return null;
  return parts as [string, string, string];
}

/** The JSON a base64url part holds, or undefined when it holds none (bad base64url, bad UTF-8 or bad JSON). */
function jsonOf(part: string): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64url(part)));
  } catch {
    return undefined;
  }
}

/** The claims a manifest makes, or null when it is not a well-formed one (its signature is checked apart). */
export function claimsOfManifest(manifest: string): FilmManifestClaims | null {
  const parts = jwsParts(manifest);
  if (!parts) return null;
  const claims = FilmManifestClaims.safeParse(jsonOf(parts[1]));
  return claims.success ? claims.data : null;
}

/**
 * The bytes before the film: magic, length, manifest. Throws on a manifest this module would refuse to read back,
 * so a phone never writes a file another phone calls damaged.
 */
export function filmFileHeader(manifest: string): Uint8Array<ArrayBuffer> {
  // A JWS is ASCII, so its length in characters is its length in bytes.
  if (!jwsParts(manifest)) throw new RangeError('A film file’s manifest must be a compact JWS of at most 1 MiB.');
  const header = new Uint8Array(FILM_FILE_HEADER_BYTES + manifest.length);
  header.set(FILM_FILE_MAGIC);
  new DataView(header.buffer).setUint32(FILM_FILE_MAGIC.length, manifest.length, false);
  header.set(new TextEncoder().encode(manifest), FILM_FILE_HEADER_BYTES);
  return header;
}

/** The whole `.filamu` file. A Blob of parts: a film of gigabytes held in OPFS is streamed, never read into memory. */
export function filmFileBlob(manifest: string, film: Blob): Blob {
  return new Blob([filmFileHeader(manifest), film]);
}

async function bytesOf(file: Blob, start: number, end: number): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await file.slice(start, end).arrayBuffer());
}

/**
 * Reads and checks a film file's header: which film it is and where the film starts. Reads a few bytes and the
 * manifest, never the film. The manifest's signature is not checked here (`verifyManifestSignature` needs the
 * server's key, which the caller holds), nor the chunks (`copyVerifiedFilm`). `fileName` tells an old bare copy —
 * the film alone, named `.filamu` before this format — from a file that was never Filamu's.
 */
export async function readFilmFile(file: Blob, fileName: string): Promise<FilmFileRead> {
  const start = await bytesOf(file, 0, FILM_FILE_HEADER_BYTES);
  const magicLength = FILM_FILE_MAGIC.length;
  const hasMagic = FILM_FILE_MAGIC.every((byte, i) => start[i] === byte);
  if (!hasMagic) {
    // "FILAMU", a zero, then the version: a later version is a newer app's file, not an older one's or a stranger's.
    const version = start[magicLength - 1] ?? 0;
    const ours = FILM_FILE_MAGIC.slice(0, magicLength - 1).every((b, i) => start[i] === b);
    if (ours && version > FILM_FILE_MAGIC[7]) return { ok: false, problem: NEWER_FORMAT };
    // A file that stops inside the magic is a film file cut off at its very start, not a stranger.
    const cutInMagic =
      start.length > 0 && start.length < magicLength && start.every((b, i) => b === FILM_FILE_MAGIC[i]);
    if (cutInMagic) return { ok: false, problem: DAMAGED };
    return { ok: false, problem: fileName.toLowerCase().endsWith('.filamu') ? OLDER_FORMAT : NOT_FILAMU };
  }
  if (start.length < FILM_FILE_HEADER_BYTES) return { ok: false, problem: DAMAGED };

  // Checked before anything is read with it: a damaged length could ask for 4 GiB.
  const manifestBytes = new DataView(start.buffer, start.byteOffset).getUint32(magicLength, false);
  const filmOffset = FILM_FILE_HEADER_BYTES + manifestBytes;
  if (manifestBytes < 1 || manifestBytes > MAX_FILM_MANIFEST_BYTES || filmOffset > file.size) {
    return { ok: false, problem: DAMAGED };
  }

  const manifest = new TextDecoder().decode(await bytesOf(file, FILM_FILE_HEADER_BYTES, filmOffset));
  const claims = claimsOfManifest(manifest);
  if (!claims) return { ok: false, problem: DAMAGED };

  const arrivedBytes = file.size - filmOffset;
  const filmBytes = claims.bytes;
  if (arrivedBytes < filmBytes) {
    // Rounded down, so a file one byte short never says 100%.
    const percent = Math.floor((arrivedBytes * 100) / filmBytes);
    const message = `Only ${percent}% of this film file arrived. Ask the sender for it again.`;
    return { ok: false, problem: { kind: 'incomplete', message, arrivedBytes, filmBytes } };
  }
  // Longer than the manifest says is not a film Filamu made: something was added or the length is wrong.
  if (arrivedBytes > filmBytes) return { ok: false, problem: DAMAGED };
  return { ok: true, manifest, claims, filmOffset };
}

/**
 * Whether the server signed this manifest, with its public key (the licence key, ES256). False, never a throw, for
 * anything malformed — a bad token, a header naming another algorithm, a key that does not import — because to the
 * person every one of them means the same: this file is not one Filamu made.
 */
export async function verifyManifestSignature(manifest: string, jwk: JsonWebKey): Promise<boolean> {
  const parts = jwsParts(manifest);
  if (!parts) return false;
  const [header, payload, signature] = parts;
  // Only ES256: a header that names another algorithm (or `none`) is refused, not obeyed.
  const protectedHeader = jsonOf(header);
  if (typeof protectedHeader !== 'object' || protectedHeader === null) return false;
  if ((protectedHeader as { alg?: unknown }).alg !== 'ES256') return false;
  try {
    const rawSignature = fromBase64url(signature);
    // ES256's signature is r‖s, 32 bytes each (RFC 7518 §3.4), not DER.
    if (rawSignature.length !== 64) return false;
    const key = await crypto.subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    const signed = new TextEncoder().encode(`${header}.${payload}`);
    return await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, rawSignature, signed);
  } catch {
    return false;
  }
}

/** The SHA-256 the manifest gives for chunk `index` (from 0). */
export function chunkHashOf(claims: FilmManifestClaims, index: number): Uint8Array<ArrayBuffer> {
  return chunkHashIn(fromBase64url(claims.hashes), claims, index);
}

function chunkHashIn(hashes: Uint8Array<ArrayBuffer>, claims: FilmManifestClaims, index: number) {
  if (!Number.isInteger(index) || index < 0 || index >= filmChunkCount(claims.bytes)) {
    throw new RangeError(`There is no chunk ${index} in this film.`);
  }
  return hashes.subarray(index * FILM_CHUNK_HASH_BYTES, (index + 1) * FILM_CHUNK_HASH_BYTES);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

export interface CopyFilmOptions {
  /** Where in the film to go on from: a multiple of FILM_CHUNK_BYTES, the chunks before it already written. */
  from?: number;
  /** After each chunk is written: how many of the film's bytes are written in all, counting those before `from`. */
  onProgress?: (doneBytes: number) => void;
  /** Stops between chunks; the copy then rejects with the signal's reason, like `fetch`. */
  signal?: AbortSignal;
}

export type CopyFilmResult = { ok: true } | { ok: false; problem: Extract<FilmFileProblem, { kind: 'bad-chunk' }> };

/**
 * Copies the film out of a film file that `readFilmFile` accepted, one 1 MiB chunk at a time (memory stays flat
 * whatever the film's size): each chunk is hashed and handed to `write` only when it matches the manifest, so a
 * damaged chunk is never stored. A mismatch stops the copy with a `bad-chunk` problem; the chunks before it are
 * written, and a second copy of the file can go on `from` there. The manifest's signature should be checked first:
 * the hashes are only as good as it. An abort rejects (with the signal's reason) rather than returning a problem,
 * because it is the caller's own doing, not something to tell the person about the file.
 */
export async function copyVerifiedFilm(
  file: Blob,
  read: { claims: FilmManifestClaims; filmOffset: number },
  write: (chunk: Uint8Array<ArrayBuffer>, offset: number) => Promise<void>,
  options: CopyFilmOptions = {},
): Promise<CopyFilmResult> {
  const { claims, filmOffset } = read;
  const { from = 0, onProgress, signal } = options;
  if (!Number.isInteger(from) || from < 0 || from % FILM_CHUNK_BYTES !== 0 || from > claims.bytes) {
    throw new RangeError('A copy goes on from the start of a chunk within the film.');
  }
  const hashes = fromBase64url(claims.hashes);
  const chunks = filmChunkCount(claims.bytes);
  for (let index = from / FILM_CHUNK_BYTES; index < chunks; index++) {
    signal?.throwIfAborted();
    const start = index * FILM_CHUNK_BYTES;
    const end = Math.min(start + FILM_CHUNK_BYTES, claims.bytes);
    const chunk = await bytesOf(file, filmOffset + start, filmOffset + end);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', chunk));
    if (!sameBytes(digest, chunkHashIn(hashes, claims, index))) {
      const part = index + 1;
      const message = `Part ${part} of ${chunks} of this film file is damaged. Ask the sender for it again.`;
      return { ok: false, problem: { kind: 'bad-chunk', message, part, of: chunks } };
    }
    // Checked again: an abort while the chunk was read must not still write it.
    signal?.throwIfAborted();
    await write(chunk, start);
    onProgress?.(end);
  }
  return { ok: true };
}
