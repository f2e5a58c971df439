import { decryptFilmRange, DownloadUrlResponse, fromBase64url } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movies } from '../../db/schema.ts';
import { createTestApp, loginAdmin, registerUser, testDatabases, type TestApp } from '../../../test/harness.ts';
import { addMovie, createPlan, fetchLink, subscribe } from '../../../test/library.ts';
import { phoneKeys, unwrap } from '../licences/phone-keys.testing.ts';
import { TranscodeHub } from './hub.ts';
import { ENCRYPT_QUEUE } from './queue.ts';
import { startTranscodeRunner } from './runner.ts';

/**
 * A server that found no ffmpeg (decision 0238): it makes no renditions, but a film it saves still reaches phones
 * only encrypted — the encryption job needs no ffmpeg, so its queue runs anyway.
 */

async function encryptedOriginal(t: TestApp, movieId: string): Promise<boolean> {
  const [row] = await t.deps.database.db
    .select({ key: movies.originalFileKey })
    .from(movies)
    .where(eq(movies.id, movieId));
  return row?.key != null;
}

describe.each(testDatabases)('a server without ffmpeg on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let stopRunner: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const transcode = new TranscodeHub(null, 'ffmpeg was not found: originals only.');
    t = await createTestApp(kind, { env: { TRANSCODE_CONCURRENCY: '1' }, transcode });
    adminToken = await loginAdmin(t);
    stopRunner = await startTranscodeRunner(t.deps);
  });
  afterAll(async () => {
    await stopRunner();
    await t.close();
  });

  it('saves a film as its original only, then gives phones its encrypted copy, which decrypts to the upload', async () => {
    const planId = await createPlan(t, adminToken);
    const film = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: 200_003 });
    expect(film.movie.renditions).toEqual([]);
    const deadline = Date.now() + 30_000;
    while (!(await encryptedOriginal(t, film.movie.id))) {
      if (Date.now() > deadline) throw new Error('the original was not encrypted within 30 s without ffmpeg');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const person = await registerUser(t);
    await subscribe(t, adminToken, person.user.id as string, planId);
    const phone = await phoneKeys();
    const res = await t.request('POST', '/api/users/movies/generate-download-url', {
      token: person.token,
      body: { movieId: film.movie.id, devicePublicKey: phone.spki },
    });
    expect(res.status, res.text).toBe(200);
    const link = DownloadUrlResponse.parse(res.json);
    expect(link.fileNonce).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(link.fileName.endsWith('.filamu')).toBe(true);
    const whole = await fetchLink(t, link.downloadUrl);
    expect(whole.bytes.length).toBe(film.bytes.length);
    expect(whole.bytes.equals(film.bytes)).toBe(false);
    const key = await unwrap(phone.pair.privateKey, link.licence!);
    const plain = await decryptFilmRange(key, fromBase64url(link.fileNonce!), 0, whole.bytes);
    expect(Buffer.from(plain).equals(film.bytes)).toBe(true);
  });
});

describe.each(testDatabases)('an encryption whose process died, on %s', (kind) => {
  let t: TestApp;
  let stopRunner: () => Promise<void> = async () => {};

  beforeAll(async () => {
    const transcode = new TranscodeHub(null, 'ffmpeg was not found: originals only.');
    t = await createTestApp(kind, {
      env: { TRANSCODE_CONCURRENCY: '1', TRANSCODE_RETRY_DELAY_SECONDS: '1' },
      transcode,
    });
  });
  afterAll(async () => {
    await stopRunner();
    await t.close();
  });

  it(
    'runs again within a minute of its last sign of life, not at its hour-long expiry',
    { timeout: 60_000 },
    async () => {
      const adminToken = await loginAdmin(t);
      const film = await addMovie(t, adminToken, { category: 'Kinayuganda', size: 50_001 });
      // A process took the job and died at once: the job stays active, and it never said it was alive.
      const queue = t.deps.transcode.queue!;
      const [taken] = await queue.boss.fetch<{ movieId: string }>(ENCRYPT_QUEUE);
      expect(taken!.data.movieId).toBe(film.movie.id);
      await t.deps.database.executeSql(
        `update pgboss.job set started_on = now() - interval '2 minutes' where id = $1::uuid`,
        [taken!.id],
      );

      stopRunner = await startTranscodeRunner(t.deps);
      const deadline = Date.now() + 45_000;
      while (!(await encryptedOriginal(t, film.movie.id))) {
        if (Date.now() > deadline) throw new Error('the dead process’s encryption never ran again');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // The same job, failed for its silence and run again (no other job was ever sent for the film).
      const { rows } = await t.deps.database.executeSql(`select retry_count from pgboss.job where id = $1::uuid`, [
        taken!.id,
      ]);
      expect(Number(rows[0]!.retry_count)).toBe(1);
    },
  );
});
