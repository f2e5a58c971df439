import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { stat, utimes, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { request as httpRequest, type ClientRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { serve } from '@hono/node-server';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, loginAdmin, type TestApp, TestClock, testDatabases } from '../../../test/harness.ts';
import { createPlan, fakeMp4, TINY_PNG } from '../../../test/library.ts';
import { jobRun } from '../../db/job-runs.ts';
import { appSecrets, movies } from '../../db/schema.ts';
import type { Deps } from '../../deps.ts';
import {
  runStorageCleanup,
  STORAGE_CLEANUP_JOB,
  STORAGE_CLEANUP_LOG,
  startStorageCleanup,
  TEMP_FILE_MARGIN_MS,
} from './cleanup.ts';
import { lockObjectKeys } from './key-locks.ts';
import { createTempFile, pendingUploads } from './local-objects.ts';
import { stagedUploads } from './local-multipart.ts';
import { eventually } from './local.testing.ts';
import { newObjectKey } from './storage.ts';

const MIB = 1024 * 1024;
const HOUR = 3_600_000;
/** The test apps' pass interval: each pass below first moves the clock this far, so it is due. */
const INTERVAL_MS = 60_000;

/**
 * The storage cleanup job on the local driver, on each database: what a crash, a cut upload, an abandoned multipart
 * upload or an unsaved upload leaves is removed once it can no longer be anyone's, and nothing else.
 */
describe.each(testDatabases)('storage cleanup, local folder, on %s', (kind) => {
  let t: TestApp;
  let dir: string;
  let adminToken: string;
  let planId: string;
  const linkLifeMs = 900_000;

  beforeAll(async () => {
    // The job compares file times with the injected clock: start it at the real time, move it only a little.
    t = await createTestApp(kind, {
      clock: new TestClock(new Date().toISOString()),
      env: { STORAGE_CLEANUP_INTERVAL_MS: String(INTERVAL_MS), UPLOAD_URL_TTL_SECONDS: String(linkLifeMs / 1000) },
    });
    dir = t.deps.config.storage.localDir;
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function pass(deps: Deps = t.deps) {
    t.clock.advance(INTERVAL_MS);
    const report = await runStorageCleanup(deps);
    expect(report, 'the pass was due, so it ran').not.toBeNull();
    return report!;
  }

  /** Sets a file's (or folder's) modification time to `ms` before the test clock's now. */
  const age = async (path: string, ms: number) => {
    const at = new Date(t.clock.now().getTime() - ms);
    await utimes(path, at, at);
  };

  /** What a server killed mid-upload leaves: the upload's own temp file, partly written, never published. */
  async function crashedUpload(bytes: number): Promise<string> {
    const temp = await createTempFile(dir);
    await temp.handle.write(Buffer.alloc(bytes, 7));
    await temp.handle.close();
    return temp.path;
  }

  async function storeObject(folder: 'movies' | 'thumbnails', bytes: Buffer, ageMs: number): Promise<string> {
    const key = newObjectKey(folder, folder === 'movies' ? 'video/mp4' : 'image/png')!;
    await t.deps.storage.put(key, bytes, folder === 'movies' ? 'video/mp4' : 'image/png');
    await age(join(dir, key), ageMs);
    return key;
  }

  const saveMovie = (movieS3Key: string, thumbnailS3Key: string | null) =>
    t.request('POST', '/api/admin/movies', {
      token: adminToken,
      body: {
        title: `Movie ${randomUUID().slice(0, 6)}`,
        category: 'Kinayuganda',
        rating: 'all',
        movieS3Key,
        thumbnailS3Key,
        planIds: [planId],
      },
    });

  it('removes a crashed upload’s temp file once older than the link’s life and the margin, not before', async () => {
    const life = linkLifeMs + TEMP_FILE_MARGIN_MS;
    const old = await crashedUpload(3 * MIB);
    const young = await crashedUpload(MIB);
    // Ages are checked at the pass, after the clock moved by the interval.
    await age(old, life + 5 * 60_000 - INTERVAL_MS);
    await age(young, life - 5 * 60_000 - INTERVAL_MS);

    const report = await pass();
    expect(report.tempFiles).toEqual({ count: 1, bytes: 3 * MIB });
    expect(existsSync(old)).toBe(false);
    expect(existsSync(young)).toBe(true);

    await age(young, life + 60_000);
    expect((await pass()).tempFiles).toEqual({ count: 1, bytes: MIB });
    expect(await pendingUploads(dir)).toEqual([]);
  });

  it('never removes an upload still receiving bytes, however long ago it started', async () => {
    const server = await new Promise<Server>((resolve) => {
      const running = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(running as Server));
    });
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const link = await t.request('POST', '/api/admin/movies/generate-upload-url', {
        token: adminToken,
        body: { fileName: 'slow.mp4', fileType: 'video/mp4', fileSize: 2 * MIB, folder: 'movies' },
      });
      expect(link.status, link.text).toBe(200);
      const { s3Key, presignedUrl, headers } = link.json as {
        s3Key: string;
        presignedUrl: string;
        headers: Record<string, string>;
      };
      const body = fakeMp4(2 * MIB);

      let req!: ClientRequest;
      const answered = new Promise<number>((resolve, reject) => {
        const { pathname, search } = new URL(presignedUrl, origin);
        req = httpRequest(`${origin}${pathname}${search}`, { method: 'PUT', headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
      });
      req.write(body.subarray(0, MIB));
      const tempSize = async () => {
        const [name] = await pendingUploads(dir);
        return name ? (await stat(join(dir, '.uploads', name))).size : 0;
      };
      await eventually(async () => (await tempSize()) === MIB);
      // The upload began long ago (as far as the file's time says) and then more bytes arrive.
      const [name] = await pendingUploads(dir);
      await age(join(dir, '.uploads', name!), 3 * HOUR);
      req.write(body.subarray(MIB));
      await eventually(async () => (await tempSize()) === 2 * MIB);

      expect((await pass()).tempFiles.count).toBe(0);
      req.end();
      expect(await answered).toBe(200);
      expect((await t.deps.storage.head(s3Key))?.size).toBe(2 * MIB);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('removes multipart staging folders idle longer than the multipart life; the upload then reads as ended', async () => {
    const multipart = t.deps.storage.multipart!;
    const life = t.deps.config.storage.cleanup.multipartMaxAgeMs;
    const oldKey = newObjectKey('movies', 'video/mp4')!;
    const oldId = await multipart.create(oldKey, 'video/mp4', { partSize: 5 * MIB });
    const liveId = await multipart.create(newObjectKey('movies', 'video/mp4')!, 'video/mp4', { partSize: 5 * MIB });
    const staging = join(dir, '.multipart', oldId);
    await writeFile(join(staging, '1.part'), Buffer.alloc(5 * MIB));
    for (const entry of ['upload.json', '1.part', '.']) await age(join(staging, entry), life + HOUR);
    // A folder whose newest part is recent counts as touched, even when the folder itself looks old.
    const live = join(dir, '.multipart', liveId);
    await writeFile(join(live, '1.part'), Buffer.alloc(10));
    for (const entry of ['upload.json', '.']) await age(join(live, entry), life + HOUR);
    const recordBytes = (await stat(join(staging, 'upload.json'))).size;

    const report = await pass();
    expect(report.multipartUploads).toEqual({ count: 1, bytes: 5 * MIB + recordBytes });
    expect(await stagedUploads(dir)).toEqual([liveId]);

    const resumed = await t.request('POST', '/api/admin/movies/multipart/part-urls', {
      token: adminToken,
      body: { s3Key: oldKey, uploadId: oldId, partNumbers: [2] },
    });
    expect(resumed.status).toBe(400);
    expect(resumed.json.error.message).toBe('This upload has ended or was cancelled. Start the upload again.');
  });

  it('removes objects no live movie references once older than the orphan age; keeps referenced, young and foreign files', async () => {
    const orphanAge = t.deps.config.storage.cleanup.orphanAgeMs;
    const old = orphanAge + HOUR;
    const savedMovie = await storeObject('movies', fakeMp4(3000), old);
    const savedThumbnail = await storeObject('thumbnails', TINY_PNG, old);
    expect((await saveMovie(savedMovie, savedThumbnail)).status).toBe(201);
    const orphanMovie = await storeObject('movies', fakeMp4(5000), old);
    const orphanThumbnail = await storeObject('thumbnails', TINY_PNG, old);
    const young = await storeObject('movies', fakeMp4(700), orphanAge - HOUR);
    // Not a key the server mints: never ours to delete.
    const foreign = join(dir, 'movies', 'README.txt');
    await writeFile(foreign, 'kept by the operator');
    await age(foreign, old);
    // A deleted movie whose file could not be removed at the time (put back to stand for that leftover).
    const deletedFile = await storeObject('movies', fakeMp4(900), old);
    const deleted = await saveMovie(deletedFile, null);
    expect(
      (await t.request('DELETE', `/api/admin/movies/${deleted.json.movie.id}`, { token: adminToken })).status,
    ).toBe(200);
    await t.deps.storage.put(deletedFile, fakeMp4(900), 'video/mp4');
    await age(join(dir, deletedFile), old);

    const report = await pass();
    expect(report.orphanObjects).toEqual({ count: 3, bytes: 5000 + TINY_PNG.length + 900 });
    for (const key of [orphanMovie, orphanThumbnail, deletedFile]) expect(await t.deps.storage.head(key)).toBeNull();
    for (const key of [savedMovie, savedThumbnail, young]) expect(await t.deps.storage.head(key)).not.toBeNull();
    expect(existsSync(foreign)).toBe(true);
    expect(report.failures).toBe(0);
  });

  it('a movie saved while the job deletes its file is refused, never saved pointing at nothing', async () => {
    const key = await storeObject('movies', fakeMp4(2000), t.deps.config.storage.cleanup.orphanAgeMs + HOUR);
    // The job's side of the race, held open: the key is locked, found unreferenced, its object deleted.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const job = t.deps.database.db.transaction(async (tx) => {
      await lockObjectKeys(tx, [key]);
      locked();
      await held;
      await t.deps.storage.delete(key);
    });
    await isLocked;
    // The admin saves now: the file is still there when the save first looks (before its transaction).
    const saving = saveMovie(key, null);
    if (kind === 'postgres') {
      // Postgres: the save has checked the file and now waits for the key's lock inside its transaction.
      await eventually(async () => {
        const waiting = await t.deps.database.db.execute(
          sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`,
        );
        return (waiting as unknown as { rows: { n: number }[] }).rows[0]!.n > 0;
      });
    } else {
      // PGlite has one connection: the save waits for the job's transaction at its first query.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    release();
    await job;
    const saved = await saving;
    expect(saved.status, saved.text).toBe(400);
    expect(saved.json.error.message).toBe('The movie file has not been uploaded yet. Upload it, then save.');
    expect(await t.deps.database.db.select().from(movies).where(eq(movies.s3Key, key))).toEqual([]);
  });

  it('logs each pass with counts and bytes, and no secret', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    await age(await crashedUpload(4096), linkLifeMs + TEMP_FILE_MARGIN_MS + HOUR);
    await pass({ ...t.deps, logger });

    const passLine = lines.map((line) => JSON.parse(line)).find((line) => line.msg === STORAGE_CLEANUP_LOG);
    expect(passLine).toMatchObject({
      job: STORAGE_CLEANUP_JOB,
      tempFiles: { count: 1, bytes: 4096 },
      multipartUploads: { count: 0, bytes: 0 },
      orphanObjects: { count: 0, bytes: 0 },
      failures: 0,
    });
    const secrets = (await t.deps.database.db.select().from(appSecrets)).map((row) => row.value);
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of [...secrets, ADMIN.password]) expect(lines.join('\n')).not.toContain(secret);
  });

  it('runs a first pass right after start, recorded in job_runs', async () => {
    const before = (await jobRun(t.deps.database.db, STORAGE_CLEANUP_JOB))!.runs;
    t.clock.advance(INTERVAL_MS);
    const crashed = await crashedUpload(100);
    await age(crashed, linkLifeMs + TEMP_FILE_MARGIN_MS + HOUR);
    const stop = startStorageCleanup(t.deps, INTERVAL_MS, { firstPassAfterMs: 10 });
    try {
      await eventually(() => !existsSync(crashed));
    } finally {
      await stop();
    }
    const row = (await jobRun(t.deps.database.db, STORAGE_CLEANUP_JOB))!;
    expect(row.runs).toBe(before + 1);
    expect(row.lastReport).toMatchObject({ tempFiles: { count: 1, bytes: 100 } });
  });

  it('two replicas on one database and one folder: exactly one pass does the work each period', async () => {
    const other = await createTestApp(kind, {
      database: t.deps.database,
      keepDatabaseOpen: true,
      clock: t.clock,
      env: {
        DATA_DIR: t.deps.config.dataDir,
        STORAGE_CLEANUP_INTERVAL_MS: String(INTERVAL_MS),
        UPLOAD_URL_TTL_SECONDS: String(linkLifeMs / 1000),
      },
    });
    try {
      for (let round = 0; round < 5; round += 1) {
        const debris = await crashedUpload(1000 + round);
        await age(debris, linkLifeMs + TEMP_FILE_MARGIN_MS + HOUR);
        const before = (await jobRun(t.deps.database.db, STORAGE_CLEANUP_JOB))!.runs;
        t.clock.advance(INTERVAL_MS);
        const reports = await Promise.all([runStorageCleanup(t.deps), runStorageCleanup(other.deps)]);
        const ran = reports.filter((report) => report !== null);
        expect(ran).toHaveLength(1);
        expect(ran[0]!.tempFiles).toEqual({ count: 1, bytes: 1000 + round });
        expect((await jobRun(t.deps.database.db, STORAGE_CLEANUP_JOB))!.runs).toBe(before + 1);
        expect(existsSync(debris)).toBe(false);
      }
      // Within the period nobody runs again.
      expect(await runStorageCleanup(other.deps)).toBeNull();
    } finally {
      await other.close();
    }
  });
});
