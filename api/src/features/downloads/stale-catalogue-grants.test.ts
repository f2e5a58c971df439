import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KINAYUGANDA_FIRST } from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  freshDatabase,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { addMovie, addReadyRendition, createPlan, fakeMp4, fetchLink, subscribe } from '../../../test/library.ts';
import { movieRenditions, movies } from '../../db/schema.ts';
import { filmKey } from '../storage/storage.ts';

/**
 * A grant starts from the catalogue its replica holds in memory (decision 0242) and decides by what is committed: a
 * replica that has not yet seen another's change of a movie's category or files still grants by the change.
 */
describe.each(testDatabases)('grants on a replica whose catalogue is behind, on %s', (kind) => {
  let database: Database;
  let behind: TestApp;
  let admin: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    // Two replicas of one deployment: one database, one object store.
    const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'filamu-replicas-')) };
    behind = await createTestApp(kind, { database, env, keepDatabaseOpen: true });
    admin = await createTestApp(kind, { database, env, keepDatabaseOpen: true });
    adminToken = await loginAdmin(admin);
  });
  afterAll(async () => {
    await behind.close();
    await admin.close();
    await database.close();
  });

  const grant = (app: TestApp, token: string, body: Record<string, unknown>) =>
    app.request('POST', '/api/users/movies/generate-download-url', { token, body });

  /** A subscriber of a new Kinayuganda film whose catalogue the replica behind has just read. */
  async function subscriberSeenByReplica(movie: { size?: number; small?: number }) {
    const planId = await createPlan(admin, adminToken);
    const film = await addMovie(admin, adminToken, { category: 'Kinayuganda', planIds: [planId], size: movie.size });
    if (movie.small) await addReadyRendition(admin, film.movie.id, 'small', movie.small);
    const { token, user } = await registerUser(admin);
    await subscribe(admin, adminToken, user.id, planId);
    expect((await behind.request('GET', '/api/users/movies', { token })).status).toBe(200);
    return { movieId: film.movie.id, token };
  }

  /** A file of 1,500 bytes stored under a new key, as the encryption job replaces one; the replica has not looked. */
  async function storeReplacement(movieId: string, size: 'small' | 'original') {
    const bytes = fakeMp4(1_500);
    const nonce = randomBytes(8);
    const key = filmKey(movieId, size, nonce);
    await admin.deps.storage.put(key, bytes, 'application/octet-stream');
    return { bytes, key, nonce: nonce.toString('base64url') };
  }

  it('refuses a movie made English elsewhere while a Kinayuganda one is still to download', async () => {
    const planId = await createPlan(admin, adminToken);
    await addMovie(admin, adminToken, { category: 'Kinayuganda', planIds: [planId] });
    const moved = await addMovie(admin, adminToken, { category: 'Kinayuganda', planIds: [planId] });
    const { token, user } = await registerUser(admin);
    await subscribe(admin, adminToken, user.id, planId);
    // The replica reads its catalogue now, with the movie still Kinayuganda.
    expect((await behind.request('GET', '/api/users/movies', { token })).status).toBe(200);

    const patched = await admin.request('PATCH', `/api/admin/movies/${moved.movie.id}`, {
      token: adminToken,
      body: { category: 'English', vj: 'VJ Junior' },
    });
    expect(patched.status, patched.text).toBe(200);

    const refused = await grant(behind, token, { movieId: moved.movie.id });
    expectErrorEnvelope(refused, 403, 'download_locked');
    expect(refused.json.error.message).toBe(KINAYUGANDA_FIRST);
  });

  it('hands out the file committed now, not the one the replica remembers', async () => {
    const { movieId, token } = await subscriberSeenByReplica({ small: 1_000 });
    // Small is replaced meanwhile (by its encrypted copy, under a new key).
    const again = await storeReplacement(movieId, 'small');
    await database.db
      .update(movieRenditions)
      .set({ storageKey: again.key, sizeBytes: again.bytes.length, fileNonce: again.nonce })
      .where(and(eq(movieRenditions.movieId, movieId), eq(movieRenditions.kind, 'small')));
    const link = await grant(behind, token, { movieId, size: 'small' });
    expect(link.status, link.text).toBe(200);
    expect(link.json).toMatchObject({ size: 'small', fileSize: 1_500, fileNonce: again.nonce });
    expect((await fetchLink(behind, link.json.downloadUrl as string)).bytes).toEqual(again.bytes);
  });

  it('takes the length a client learned from a replica that has seen the new file', async () => {
    const { movieId, token } = await subscriberSeenByReplica({ size: 1_000 });
    // The original is replaced by its encrypted copy.
    const again = await storeReplacement(movieId, 'original');
    await database.db
      .update(movies)
      .set({ originalFileKey: again.key, sizeBytes: again.bytes.length, originalFileNonce: again.nonce })
      .where(eq(movies.id, movieId));

    // The old length is refused with the true one; the true one is taken although this replica remembers the old.
    const start = (totalBytes: number) =>
      behind.request('POST', '/api/users/downloads/start', { token, body: { movieId, totalBytes } });
    const stale = await start(1_000);
    expectErrorEnvelope(stale, 400, 'bad_request');
    expect(stale.json.error.message).toBe('totalBytes must be the file size (1500 bytes).');
    const started = await start(1_500);
    expect(started.status, started.text).toBe(200);
    expect(started.json).toMatchObject({ status: 'starting', totalBytes: 1_500 });
  });
});
