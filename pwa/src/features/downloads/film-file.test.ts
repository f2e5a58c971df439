import { randomBytes, randomUUID } from 'node:crypto';
import {
  FILM_CHUNK_BYTES,
  FILM_FILE_HEADER_BYTES,
  FILM_FILE_MAGIC,
  FilmManifestClaims,
  MAX_FILM_MANIFEST_BYTES,
  toBase64url,
} from '@filamu/shared';
import { describe, expect, it, vi } from 'vitest';
import {
  chunkHashOf,
  copyVerifiedFilm,
  filmFileBlob,
  filmFileHeader,
  readFilmFile,
  verifyManifestSignature,
} from './film-file.ts';

/** `.filamu` film files (decision 0243) on Node's WebCrypto and Blob, the manifest signed here as the server does. */

const ascii = (text: string) => new TextEncoder().encode(text);
const json64 = (value: unknown) => toBase64url(ascii(JSON.stringify(value)));

async function keyPair() {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  return { privateKey: pair.privateKey, jwk: await crypto.subtle.exportKey('jwk', pair.publicKey) };
}

/** A compact JWS as `jose` makes it: WebCrypto's ECDSA signature is already JWS's raw r‖s. */
async function sign(privateKey: CryptoKey, claims: unknown, header: unknown = { alg: 'ES256' }): Promise<string> {
  const signingInput = `${json64(header)}.${json64(claims)}`;
  const signature = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, ascii(signingInput));
  return `${signingInput}.${toBase64url(signature)}`;
}

async function hashesOf(film: Uint8Array<ArrayBuffer>): Promise<string> {
  const digests: Uint8Array[] = [];
  for (let start = 0; start < film.length; start += FILM_CHUNK_BYTES) {
    digests.push(new Uint8Array(await crypto.subtle.digest('SHA-256', film.slice(start, start + FILM_CHUNK_BYTES))));
  }
  return toBase64url(Uint8Array.from(digests.flatMap((digest) => [...digest])));
}

/** A 2.5 MiB film (three chunks, the last one short), its claims and its signed manifest. */
async function signedFilm() {
  const { privateKey, jwk } = await keyPair();
  const film = new Uint8Array(randomBytes(FILM_CHUNK_BYTES * 2.5));
  const claims = FilmManifestClaims.parse({
    v: 1,
    mid: randomUUID(),
    title: 'Kasuku’s Journey',
    category: 'Kinayuganda',
    vj: 'VJ Junior',
    rating: 'all',
    size: 'small',
    nonce: toBase64url(randomBytes(8)),
    bytes: film.length,
    chunk: FILM_CHUNK_BYTES,
    hashes: await hashesOf(film),
    iat: Math.floor(Date.now() / 1000),
  });
  return { film, claims, jwk, privateKey, manifest: await sign(privateKey, claims) };
}

/** The film file of `film` with `manifest`, and what `readFilmFile` read of it (which must be sound). */
async function opened(manifest: string, film: Uint8Array<ArrayBuffer>) {
  const file = filmFileBlob(manifest, new Blob([film]));
  const read = await readFilmFile(file, 'Kasuku.filamu');
  if (!read.ok) throw new Error(read.problem.message);
  return { file, read };
}

/** Every chunk `copyVerifiedFilm` writes, and every progress it reports. */
function recorder() {
  const written: { offset: number; bytes: Uint8Array }[] = [];
  const progress: number[] = [];
  const write = async (bytes: Uint8Array, offset: number) => {
    written.push({ offset, bytes: bytes.slice() });
  };
  return { written, progress, write, onProgress: (done: number) => progress.push(done) };
}

/** Whether the chunks written, one after another, are exactly `bytes` (a Buffer compare: 2.5 MiB is slow to diff). */
const writtenAre = (chunks: { bytes: Uint8Array }[], bytes: Uint8Array) =>
  Buffer.concat(chunks.map((chunk) => chunk.bytes)).equals(bytes);

/** A file whose header says the manifest is `length` bytes long, followed by `rest`. */
function withLength(length: number, ...rest: BlobPart[]): Blob {
  const header = new Uint8Array(FILM_FILE_HEADER_BYTES);
  header.set(FILM_FILE_MAGIC);
  new DataView(header.buffer).setUint32(FILM_FILE_MAGIC.length, length, false);
  return new Blob([header, ...rest]);
}

/** How far into `file` its reads (through `slice`) have reached. */
function furthestRead(file: Blob) {
  const spy = vi.spyOn(file, 'slice');
  return () => Math.max(...spy.mock.calls.map(([, end = file.size]) => Math.min(end, file.size)));
}

describe('a film file, written and read back', () => {
  it('carries the signed manifest and the film whole, checked chunk by chunk as it is copied', async () => {
    const { film, claims, jwk, manifest } = await signedFilm();
    const file = filmFileBlob(manifest, new Blob([film]));
    expect(file.size).toBe(FILM_FILE_HEADER_BYTES + manifest.length + film.length);

    const reached = furthestRead(file);
    const read = await readFilmFile(file, 'Kasuku.filamu');
    if (!read.ok) throw new Error(read.problem.message);
    expect(read).toMatchObject({ manifest, claims, filmOffset: FILM_FILE_HEADER_BYTES + manifest.length });
    // The header only: no read reaches into the film.
    expect(reached()).toBe(read.filmOffset);

    expect(await verifyManifestSignature(read.manifest, jwk)).toBe(true);

    const { written, progress, write, onProgress } = recorder();
    expect(await copyVerifiedFilm(file, read, write, { onProgress })).toEqual({ ok: true });
    expect(written.map(({ offset }) => offset)).toEqual([0, FILM_CHUNK_BYTES, 2 * FILM_CHUNK_BYTES]);
    expect(writtenAre(written, film)).toBe(true);
    expect(progress).toEqual([FILM_CHUNK_BYTES, 2 * FILM_CHUNK_BYTES, film.length]);
  });

  it('gives each chunk’s hash from the manifest', async () => {
    const { film, claims } = await signedFilm();
    const last = new Uint8Array(await crypto.subtle.digest('SHA-256', film.slice(2 * FILM_CHUNK_BYTES)));
    expect(chunkHashOf(claims, 2)).toEqual(last);
    expect(() => chunkHashOf(claims, 3)).toThrow(RangeError);
  });

  it('will not write a header another phone would call damaged', () => {
    expect(() => filmFileHeader('not a manifest')).toThrow(RangeError);
    expect(() => filmFileHeader(`a.${'b'.repeat(MAX_FILM_MANIFEST_BYTES)}.c`)).toThrow(RangeError);
  });
});

describe('the manifest’s signature', () => {
  it('holds only with the server’s key, over the payload it signed, as ES256', async () => {
    const { claims, jwk, privateKey, manifest } = await signedFilm();
    expect(await verifyManifestSignature(manifest, jwk)).toBe(true);
    expect(await verifyManifestSignature(manifest, (await keyPair()).jwk)).toBe(false);

    const [header, , signature] = manifest.split('.');
    const renamed = json64({ ...claims, title: 'Another film' });
    expect(await verifyManifestSignature(`${header}.${renamed}.${signature}`, jwk)).toBe(false);

    // Signed by the right key, but a header naming another algorithm is refused, not obeyed.
    expect(await verifyManifestSignature(await sign(privateKey, claims, { alg: 'ES384' }), jwk)).toBe(false);
  });

  it('is false, never a throw, for anything malformed', async () => {
    const { jwk, manifest } = await signedFilm();
    const [header, payload] = manifest.split('.');
    for (const token of ['', 'a.b', 'not.a.jws', `${header}.${payload}.AAAA`, `${header}.${payload}.!!`]) {
      expect(await verifyManifestSignature(token, jwk)).toBe(false);
    }
    expect(await verifyManifestSignature(manifest, { kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' })).toBe(false);
  });
});

describe('copying the film out', () => {
  it('stops at a damaged chunk, naming it, and writes nothing from it on', async () => {
    const { film, manifest } = await signedFilm();
    const damaged = film.slice();
    damaged[FILM_CHUNK_BYTES + 5]! ^= 0xff;
    const { file, read } = await opened(manifest, damaged);

    const { written, write } = recorder();
    expect(await copyVerifiedFilm(file, read, write)).toEqual({
      ok: false,
      problem: {
        kind: 'bad-chunk',
        part: 2,
        of: 3,
        message: 'Part 2 of 3 of this film file is damaged. Ask the sender for it again.',
      },
    });
    expect(written.map(({ offset }) => offset)).toEqual([0]);
    expect(writtenAre(written, film.slice(0, FILM_CHUNK_BYTES))).toBe(true);
  });

  it('goes on from a chunk already written', async () => {
    const { film, manifest } = await signedFilm();
    const { file, read } = await opened(manifest, film);

    const { written, progress, write, onProgress } = recorder();
    expect(await copyVerifiedFilm(file, read, write, { from: FILM_CHUNK_BYTES, onProgress })).toEqual({ ok: true });
    expect(written.map(({ offset }) => offset)).toEqual([FILM_CHUNK_BYTES, 2 * FILM_CHUNK_BYTES]);
    expect(writtenAre(written, film.slice(FILM_CHUNK_BYTES))).toBe(true);
    expect(progress).toEqual([2 * FILM_CHUNK_BYTES, film.length]);
    await expect(copyVerifiedFilm(file, read, write, { from: 5 })).rejects.toThrow(RangeError);
  });

  it('stops when aborted, between chunks or while one is read, rejecting with the reason', async () => {
    const { manifest, film } = await signedFilm();
    const { file, read } = await opened(manifest, film);

    const controller = new AbortController();
    const reason = new Error('The person cancelled.');
    const { written, write } = recorder();
    const copy = copyVerifiedFilm(file, read, write, {
      signal: controller.signal,
      onProgress: () => controller.abort(reason),
    });
    await expect(copy).rejects.toBe(reason);
    expect(written).toHaveLength(1);
    // Aborted before it starts: not even the first chunk is read.
    const untouched = vi.spyOn(file, 'slice');
    await expect(copyVerifiedFilm(file, read, write, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(untouched).not.toHaveBeenCalled();
    untouched.mockRestore();

    // Aborted while the second chunk is being read: that chunk, though whole, is not written.
    const reading = new AbortController();
    const during = recorder();
    const slice = file.slice.bind(file);
    vi.spyOn(file, 'slice').mockImplementation((start, end) => {
      if (start === read.filmOffset + FILM_CHUNK_BYTES) reading.abort(reason);
      return slice(start, end);
    });
    await expect(copyVerifiedFilm(file, read, during.write, { signal: reading.signal })).rejects.toBe(reason);
    expect(during.written.map(({ offset }) => offset)).toEqual([0]);
  });
});

describe('a file that is not a whole film file', () => {
  it('is not Filamu’s when it has no magic and another name', async () => {
    const read = await readFilmFile(new Blob([randomBytes(4096)]), 'x.mp4');
    expect(read).toEqual({ ok: false, problem: { kind: 'not-filamu', message: 'This is not a Filamu film file.' } });
    expect(await readFilmFile(new Blob([]), 'empty')).toMatchObject({ ok: false, problem: { kind: 'not-filamu' } });
  });

  it('is an older Filamu’s bare copy when it has no magic and a .filamu name', async () => {
    expect(await readFilmFile(new Blob([randomBytes(4096)]), 'Film.filamu')).toEqual({
      ok: false,
      problem: {
        kind: 'older-format',
        message: 'This file is from an older Filamu. Download the film again, or ask the sender for a new copy.',
      },
    });
  });

  it('is a newer Filamu’s when its magic has a later version', async () => {
    const magic = Uint8Array.from(FILM_FILE_MAGIC);
    magic[7] = 2;
    expect(await readFilmFile(new Blob([magic, randomBytes(4096)]), 'Film.filamu')).toEqual({
      ok: false,
      problem: {
        kind: 'newer-format',
        message: 'This film file needs a newer Filamu. Open Filamu once while online so it can update, then try again.',
      },
    });
    // Version 0 was never made: not one of Filamu's.
    magic[7] = 0;
    const zero = await readFilmFile(new Blob([magic, randomBytes(4096)]), 'x.bin');
    expect(zero).toMatchObject({ ok: false, problem: { kind: 'not-filamu' } });
  });

  it('is damaged when its manifest length is out of bounds, and that length is never read', async () => {
    const beyond = withLength(MAX_FILM_MANIFEST_BYTES + 1, new Uint8Array(MAX_FILM_MANIFEST_BYTES + 64));
    const reached = furthestRead(beyond);
    expect(await readFilmFile(beyond, 'Kasuku.filamu')).toMatchObject({ ok: false, problem: { kind: 'damaged' } });
    expect(reached()).toBe(FILM_FILE_HEADER_BYTES);

    for (const file of [withLength(0xffffffff, new Uint8Array(16)), withLength(0, new Uint8Array(16))]) {
      expect(await readFilmFile(file, 'Kasuku.filamu')).toMatchObject({ ok: false, problem: { kind: 'damaged' } });
    }
    // Cut off at its very start: inside the length, or inside the magic itself.
    for (const cut of [new Blob([Uint8Array.from(FILM_FILE_MAGIC), new Uint8Array(2)]), new Blob([ascii('FILAM')])]) {
      expect(await readFilmFile(cut, 'Kasuku.filamu')).toMatchObject({ ok: false, problem: { kind: 'damaged' } });
    }
  });

  it('is incomplete when its film stops short, by even one byte, and damaged when longer', async () => {
    const { film, manifest } = await signedFilm();
    const whole = filmFileBlob(manifest, new Blob([film]));
    expect(await readFilmFile(whole.slice(0, whole.size - 1), 'Kasuku.filamu')).toEqual({
      ok: false,
      problem: {
        kind: 'incomplete',
        message: 'Only 99% of this film file arrived. Ask the sender for it again.',
        arrivedBytes: film.length - 1,
        filmBytes: film.length,
      },
    });
    const half = whole.slice(0, whole.size - film.length / 2);
    expect(await readFilmFile(half, 'Kasuku.filamu')).toMatchObject({ problem: { arrivedBytes: film.length / 2 } });
    const longer = filmFileBlob(manifest, new Blob([film, new Uint8Array(1)]));
    expect(await readFilmFile(longer, 'Kasuku.filamu')).toMatchObject({ ok: false, problem: { kind: 'damaged' } });
  });

  it('is damaged when its manifest is not a signed manifest of a film', async () => {
    const { claims, privateKey } = await signedFilm();
    const film = new Blob([new Uint8Array(claims.bytes)]);
    const manifests = [
      // Hashes that do not cover the film: the schema refuses them.
      await sign(privateKey, { ...claims, hashes: claims.hashes.slice(0, 43) }),
      await sign(privateKey, { ...claims, v: 2 }),
      await sign(privateKey, 'not claims'),
      `${json64({ alg: 'ES256' })}.${toBase64url(ascii('{not json'))}.AAAA`,
    ];
    for (const manifest of manifests) {
      const read = await readFilmFile(filmFileBlob(manifest, film), 'Kasuku.filamu');
      expect(read).toEqual({
        ok: false,
        problem: { kind: 'damaged', message: 'This film file is damaged or incomplete. Ask the sender for it again.' },
      });
    }
    // A manifest that is not a JWS at all (written by hand: `filmFileBlob` refuses to).
    const notJws = ascii('hello world');
    const file = withLength(notJws.length, notJws, new Uint8Array(claims.bytes));
    expect(await readFilmFile(file, 'Kasuku.filamu')).toMatchObject({ ok: false, problem: { kind: 'damaged' } });
  });
});
