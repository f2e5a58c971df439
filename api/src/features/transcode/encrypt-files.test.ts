import { randomInt } from 'node:crypto';
import { decryptFilmRange, DownloadUrlResponse, fromBase64url } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movieRenditions, movies } from '../../db/schema.ts';
import {
  type TestApp,
  capturingLogger,
  createTestApp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import {
  type AddedMovie,
  addMovie,
  addReadyRendition,
  createPlan,
  encryptionJobDeps,
  fetchLink,
  subscribe,
} from '../../../test/library.ts';
import { renditionKey } from '../storage/storage.ts';
import { encryptionProgress, encryptMovieFiles, moviesWithPlainFiles } from './encrypt-files.ts';
import { phoneKeys, unwrap } from '../licences/phone-keys.testing.ts';

/**
 * The encryption job (decision 0235) as a phone and an operator see it: files stored plain before encryption are
 * served plain until the job runs, then only encrypted, under a new key whose link names its nonce; any byte range
 * a phone fetches decrypts, with the key its licence opens, to the same bytes of the film.
 */

describe.each(testDatabases)('encrypting stored films on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  const log = capturingLogger();

  beforeAll(async () => {
    t = await createTestApp(kind, { logger: log.logger });
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const jobDeps = () => encryptionJobDeps(t);

  async function link(token: string, movie: AddedMovie, body: Record<string, unknown>) {
    const res = await t.request('POST', '/api/users/movies/generate-download-url', {
      token,
      body: { movieId: movie.movie.id, ...body },
    });
    expect(res.status, res.text).toBe(200);
    return DownloadUrlResponse.parse(res.json);
  }

  it('serves a plain file until the job, then only its encrypted copy: every range decrypts to the film', async () => {
    const planId = await createPlan(t, adminToken);
    const film = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: 300_001 });
    const small = await addReadyRendition(t, film.movie.id, 'small', 100_003);
    const registered = await registerUser(t);
    await subscribe(t, adminToken, registered.user.id as string, planId);
    const phone = await phoneKeys();

    // Before the job: the file stored before encryption, plain, and the link says so.
    const before = await link(registered.token, film, { size: 'small' });
    expect(before.fileNonce).toBeNull();
    expect((await fetchLink(t, before.downloadUrl, 'bytes=0-99')).bytes.equals(small.bytes.subarray(0, 100))).toBe(
      true,
    );
    expect(await moviesWithPlainFiles(t.deps.database.db)).toContain(film.movie.id);

    const done = await encryptMovieFiles(jobDeps(), film.movie.id);
    expect(done).toEqual({ original: true, renditions: 1 });
    // Once more is nothing to do.
    expect(await encryptMovieFiles(jobDeps(), film.movie.id)).toEqual({ original: false, renditions: 0 });
    expect(await moviesWithPlainFiles(t.deps.database.db)).not.toContain(film.movie.id);

    // The plain rendition is gone; the upload stays (the transcoder's source), never linked to a phone again.
    expect(await t.deps.storage.head(renditionKey(film.movie.id, 'small'))).toBeNull();
    const [row] = await t.deps.database.db.select().from(movies).where(eq(movies.id, film.movie.id));
    expect(await t.deps.storage.head(row!.s3Key)).not.toBeNull();
    // The old link dies with the plain file: it no longer names the download's file.
    expect((await fetchLink(t, before.downloadUrl, 'bytes=0-99')).status).not.toBe(206);

    // One person per size: a download is of one file, and delivered once (issue 15/22).
    for (const [size, plain] of [
      ['small', small.bytes],
      ['original', film.bytes],
    ] as const) {
      const person = size === 'small' ? registered : await registerUser(t);
      if (person !== registered) await subscribe(t, adminToken, person.user.id as string, planId);
      const after = await link(person.token, film, { size, devicePublicKey: phone.spki });
      expect(after.fileNonce).toMatch(/^[A-Za-z0-9_-]{11}$/);
      expect(after.fileSize).toBe(plain.length);
      expect(after.fileName.endsWith('.filamu')).toBe(true);
      const key = await unwrap(phone.pair.privateKey, after.licence!);
      const nonce = fromBase64url(after.fileNonce!);
      // Not the film without the key: its first bytes (the MP4's `ftyp`) are not what the link gives.
      const head = await fetchLink(t, after.downloadUrl, 'bytes=0-63');
      expect(head.bytes.equals(plain.subarray(0, 64))).toBe(false);
      expect(Buffer.from(await decryptFilmRange(key, nonce, 0, head.bytes)).equals(plain.subarray(0, 64))).toBe(true);
      for (let i = 0; i < 10; i++) {
        const start = i === 0 ? plain.length - 1 : randomInt(0, plain.length - 1);
        const end = Math.min(plain.length - 1, start + randomInt(0, 4_000));
        const part = await fetchLink(t, after.downloadUrl, `bytes=${start}-${end}`);
        expect(part.status).toBe(206);
        const decrypted = Buffer.from(await decryptFilmRange(key, nonce, start, part.bytes));
        expect(decrypted.equals(plain.subarray(start, end + 1)), `${size} bytes ${start}-${end}`).toBe(true);
      }
    }

    // What the operator sees: every file of the movie encrypted.
    const admin = await t.request('GET', '/api/admin/movies', { token: adminToken });
    const listed = (admin.json.movies as { id: string; encryption: unknown }[]).find((m) => m.id === film.movie.id);
    expect(listed!.encryption).toEqual({ encrypted: 2, files: 2 });
    const progress = await encryptionProgress(t.deps.database.db);
    expect(progress.encrypted).toBeGreaterThanOrEqual(2);

    // The title's key is in no log line and in no object's metadata (local objects carry only bytes).
    const titleKey = await t.deps.contentKeys.keyOf(film.movie.id);
    for (const encoded of [titleKey.toString('hex'), titleKey.toString('base64'), titleKey.toString('base64url')]) {
      expect(JSON.stringify(log.entries())).not.toContain(encoded);
    }
    const [rendition] = await t.deps.database.db
      .select()
      .from(movieRenditions)
      .where(eq(movieRenditions.movieId, film.movie.id));
    expect(rendition!.storageKey).not.toContain(titleKey.toString('hex'));
  });

  it('a deleted movie is left alone', async () => {
    const film = await addMovie(t, adminToken, { category: 'Kinayuganda' });
    expect((await t.request('DELETE', `/api/admin/movies/${film.movie.id}`, { token: adminToken })).status).toBe(200);
    expect(await encryptMovieFiles(jobDeps(), film.movie.id)).toEqual({ original: false, renditions: 0 });
  });
});
