import { randomUUID } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdminMovie } from '@filamu/shared';
import { and, eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { movieRenditions, movies } from '../../db/schema.ts';
import {
  capturingLogger,
  createTestApp,
  freshDatabase,
  loginAdmin,
  testConfig,
  testDatabases,
  type TestApp,
} from '../../../test/harness.ts';
import { configuredTranscoder } from '../../bootstrap.ts';
import { plainCopyOf } from '../content-keys/film-files.testing.ts';
import { makeClip, probeFile } from './clips.testing.ts';
import { NO_SMALL_HEVC_ENCODER } from './jobs.ts';
import { BACKFILL_PRIORITY, TRANSCODE_QUEUE } from './queue.ts';
import { startTranscodeRunner } from './runner.ts';

/**
 * Movies saved before the HEVC Small existed get one at start-up (decision 0251): once, whichever of the replicas
 * starting together adds it, behind every new upload in the queue, and made and encrypted like any rendition.
 */

const clips = mkdtempSync(join(tmpdir(), 'filamu-backfill-clips-'));
let clip: string;
/** An ffmpeg built without libx265: the real one, with libx265 left out of its list of encoders. */
let ffmpegWithoutX265: string;

beforeAll(() => {
  clip = makeClip(clips, 'old.mp4', { width: 320, height: 180, seconds: 1 });
  ffmpegWithoutX265 = join(clips, 'ffmpeg-without-x265');
  writeFileSync(
    ffmpegWithoutX265,
    '#!/bin/sh\nfor arg in "$@"; do [ "$arg" = "-encoders" ] && { ffmpeg "$@" | grep -v libx265; exit 0; }; done\nexec ffmpeg "$@"\n',
  );
  chmodSync(ffmpegWithoutX265, 0o755);
});
afterAll(() => rmSync(clips, { recursive: true, force: true }));

async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The library before the HEVC Small: what servers of the previous release saved, straight into the database. */
function olderLibrary(database: Database, dataDir: string) {
  return async (options: { deleted?: boolean; ladder?: boolean } = {}): Promise<string> => {
    const ladder = options.ladder ?? true;
    const key = `movies/${randomUUID()}.mp4`;
    mkdirSync(join(dataDir, 'objects', 'movies'), { recursive: true });
    if (!options.deleted) copyFileSync(clip, join(dataDir, 'objects', key));
    const [movie] = await database.db
      .insert(movies)
      .values({
        title: `Older ${randomUUID().slice(0, 6)}`,
        category: 'English',
        vj: 'VJ Test',
        rating: 'all',
        s3Key: key,
        sizeBytes: statSync(clip).size,
        contentType: 'video/mp4',
        // Saved without ffmpeg: never probed, offered as uploaded.
        ...(ladder ? { durationSeconds: 1, width: 320, height: 180 } : {}),
        deletedAt: options.deleted ? new Date() : null,
      })
      .returning();
    if (ladder) {
      await database.db.insert(movieRenditions).values([
        { movieId: movie!.id, kind: 'small', state: options.deleted ? 'cancelled' : 'queued' },
        { movieId: movie!.id, kind: 'standard', state: 'skipped' },
        { movieId: movie!.id, kind: 'hd', state: 'skipped' },
      ]);
    }
    return movie!.id;
  };
}

async function smallHevcRows(database: Database) {
  return database.db.select().from(movieRenditions).where(eq(movieRenditions.kind, 'small-hevc'));
}

/** Every pg-boss job ever sent for a HEVC Small (finished ones included), with its priority and start. */
async function smallHevcJobs(database: Database) {
  const { rows } = await database.executeSql(
    `select singleton_key, priority, state, started_on from pgboss.job
      where name = $1 and singleton_key like '%:small-hevc'`,
    [TRANSCODE_QUEUE],
  );
  return rows.map((row) => ({
    movieId: String(row.singleton_key).split(':')[0]!,
    priority: Number(row.priority),
    state: String(row.state),
    startedOn: row.started_on ? new Date(String(row.started_on)) : null,
  }));
}

describe.each(testDatabases)('the HEVC Small for movies saved before it, on %s', (kind) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'filamu-backfill-'));
  const env = { DATA_DIR: dataDir, TRANSCODE_CONCURRENCY: '1', TRANSCODE_RETRY_DELAY_SECONDS: '1' };
  let database: Database;
  let apps: TestApp[] = [];
  let stopRunner: () => Promise<void> = async () => {};
  const older: string[] = [];
  let deleted: string;
  let originalOnly: string;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    const add = olderLibrary(database, dataDir);
    older.push(await add(), await add());
    deleted = await add({ deleted: true });
    originalOnly = await add({ ladder: false });
  });
  afterAll(async () => {
    await stopRunner();
    for (const app of apps) await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const startServer = async () =>
    createTestApp(kind, {
      database,
      keepDatabaseOpen: true,
      env,
      transcode: await configuredTranscoder(testConfig(env), pino({ level: 'silent' })),
    });

  it('two servers starting at once add one HEVC Small and one lowest-priority job to each older movie', async () => {
    apps = await Promise.all([startServer(), startServer()]);
    const rows = await smallHevcRows(database);
    expect(rows.map((r) => [r.movieId, r.state]).sort()).toEqual(older.map((id) => [id, 'queued']).sort());
    // Nothing for a deleted movie, nor for one saved without ffmpeg (offered as uploaded).
    expect(rows.map((r) => r.movieId)).not.toContain(deleted);
    expect(rows.map((r) => r.movieId)).not.toContain(originalOnly);
    const jobs = await smallHevcJobs(database);
    expect(jobs.map((j) => [j.movieId, j.priority]).sort()).toEqual(older.map((id) => [id, BACKFILL_PRIORITY]).sort());
  });

  it('runs every new upload first, then makes each older movie its HEVC Small once, stored encrypted', async () => {
    const [server] = apps;
    const token = await loginAdmin(server!);
    const key = `movies/${randomUUID()}.mp4`;
    await server!.deps.storage.put(key, readFileSync(clip), 'video/mp4');
    const saved = await server!.request('POST', '/api/admin/movies', {
      token,
      body: { title: 'New upload', category: 'English', rating: 'all', vj: 'VJ Test', movieS3Key: key },
    });
    expect(saved.status, saved.text).toBe(201);
    const upload = (saved.json.movie as AdminMovie).id;

    stopRunner = await startTranscodeRunner(server!.deps);
    const made = [...older, upload];
    const rows = await waitFor(
      'every Small ready',
      async () => {
        const list = await database.db
          .select()
          .from(movieRenditions)
          .where(and(inArray(movieRenditions.movieId, made), inArray(movieRenditions.kind, ['small', 'small-hevc'])));
        if (list.some((r) => r.state === 'failed')) throw new Error(JSON.stringify(list));
        return list.length === made.length * 2 && list.every((r) => r.state === 'ready') ? list : null;
      },
      180_000,
    );
    // pg-boss took the backfilled jobs only once nothing else waited (one worker: one job at a time).
    const { rows: started } = await database.executeSql(
      `select priority, started_on from pgboss.job where name = $1 and started_on is not null`,
      [TRANSCODE_QUEUE],
    );
    const startedAt = (priority: number) =>
      started.filter((j) => Number(j.priority) === priority).map((j) => new Date(String(j.started_on)).getTime());
    expect(startedAt(0)).toHaveLength(4);
    expect(Math.min(...startedAt(BACKFILL_PRIORITY))).toBeGreaterThan(Math.max(...startedAt(0)));

    for (const movieId of older) {
      const row = rows.find((r) => r.movieId === movieId && r.kind === 'small-hevc')!;
      expect(row.attempts).toBe(1);
      // Stored only encrypted, like any rendition (decision 0235).
      expect(row.storageKey).toMatch(new RegExp(`^renditions/${movieId}/small-hevc-[0-9a-f]{16}\\.filamu$`));
      const plain = await plainCopyOf(server!.deps.storage, server!.deps.contentKeys, {
        movieId,
        key: row.storageKey!,
        nonce: row.fileNonce!,
      });
      const facts = probeFile(plain);
      expect([facts.videoCodec, facts.height, facts.audioCodec]).toEqual(['hevc', 180, 'opus']);
    }
    const jobs = await smallHevcJobs(database);
    expect(jobs.filter((j) => older.includes(j.movieId)).map((j) => j.state)).toEqual(['completed', 'completed']);
  }, 240_000);
});

describe.each(testDatabases)('a server whose ffmpeg cannot encode HEVC, on %s', (kind) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'filamu-no-x265-'));
  const env = { DATA_DIR: dataDir };
  let database: Database;

  beforeAll(async () => {
    database = await freshDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('skips the HEVC Small with the reason, says so in its log, and makes it at the first start with the encoder', async () => {
    const older = await olderLibrary(database, dataDir)();
    const log = capturingLogger();
    const hub = await configuredTranscoder(testConfig({ ...env, FFMPEG_PATH: ffmpegWithoutX265 }), log.logger);
    expect([hub.available, hub.makesSmallHevc]).toEqual([true, false]);
    expect(log.entries()).toContainEqual(
      expect.objectContaining({ level: 40, msg: expect.stringContaining('has no libx265 or libopus') }),
    );
    const t = await createTestApp(kind, { database, keepDatabaseOpen: true, env, transcode: hub });
    const token = await loginAdmin(t);
    const key = `movies/${randomUUID()}.mp4`;
    await t.deps.storage.put(key, readFileSync(clip), 'video/mp4');
    const saved = await t.request('POST', '/api/admin/movies', {
      token,
      body: { title: 'Saved without x265', category: 'English', rating: 'all', vj: 'VJ Test', movieS3Key: key },
    });
    expect(saved.status, saved.text).toBe(201);
    const upload = saved.json.movie as AdminMovie;
    // The H.264 Small is made as ever; the HEVC Small is skipped, not failed, and the console says why.
    expect(upload.renditions.map((r) => [r.kind, r.state, r.error])).toEqual([
      ['small', 'queued', null],
      ['small-hevc', 'skipped', NO_SMALL_HEVC_ENCODER],
      ['standard', 'skipped', null],
      ['hd', 'skipped', null],
    ]);
    expect((await smallHevcRows(database)).map((r) => [r.movieId, r.state]).sort()).toEqual(
      [
        [older, 'skipped'],
        [upload.id, 'skipped'],
      ].sort(),
    );
    expect(await smallHevcJobs(database)).toEqual([]);
    await t.close();

    const upgraded = await createTestApp(kind, {
      database,
      keepDatabaseOpen: true,
      env,
      transcode: await configuredTranscoder(testConfig(env), pino({ level: 'silent' })),
    });
    try {
      expect((await smallHevcRows(database)).map((r) => [r.movieId, r.state, r.error]).sort()).toEqual(
        [
          [older, 'queued', null],
          [upload.id, 'queued', null],
        ].sort(),
      );
      const jobs = await smallHevcJobs(database);
      expect(jobs.map((j) => [j.movieId, j.priority]).sort()).toEqual(
        [
          [older, BACKFILL_PRIORITY],
          [upload.id, BACKFILL_PRIORITY],
        ].sort(),
      );
    } finally {
      await upgraded.close();
    }
  });
});
