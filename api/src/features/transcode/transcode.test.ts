import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdminMovie, AdminRendition } from '@filamu/shared';
import { RENDITION_KINDS, RENDITION_TARGETS, type RenditionKind, SMALL_HEVC_DECODING } from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movieRenditions, movies } from '../../db/schema.ts';
import {
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  testConfig,
  testDatabases,
  type TestApp,
} from '../../../test/harness.ts';
import { fakeMp4 } from '../../../test/library.ts';
import { configuredTranscoder } from '../../bootstrap.ts';
import { plainCopyOf } from '../content-keys/film-files.testing.ts';
import { renditionKey } from '../storage/storage.ts';
import { keyframeTimes, makeAudioOnly, makeClip, probeFile, topLevelBoxes } from './clips.testing.ts';
import { hevcCodecString } from './hvcc.testing.ts';
import { ladderStep } from './ladder.ts';
import { TRANSCODE_QUEUE, type TranscodeJobData } from './queue.ts';
import { startTranscodeRunner } from './runner.ts';

/** The container ffprobe reads a file as ('' when it reads none). */
function probedFormat(path: string): string {
  try {
    return execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=format_name', '-of', 'csv=p=0', path], {
      encoding: 'utf8',
    }).trim();
  } catch {
    return '';
  }
}

const clips = mkdtempSync(join(tmpdir(), 'filamu-clips-'));
let hd: string;
let sd: string;
let audioOnly: string;

beforeAll(() => {
  hd = makeClip(clips, 'hd.mp4', { width: 1280, height: 720, seconds: 4 });
  sd = makeClip(clips, 'sd.mp4', { width: 854, height: 480, seconds: 1 });
  audioOnly = makeAudioOnly(clips, 'sound.mp4');
});
afterAll(() => rmSync(clips, { recursive: true, force: true }));

async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(testDatabases)('renditions on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let stopRunner: () => Promise<void> = async () => {};

  beforeAll(async () => {
    // A short back-off, so the retries of a failing encode come within the test.
    const env = { TRANSCODE_CONCURRENCY: '1', TRANSCODE_RETRY_DELAY_SECONDS: '1' };
    const transcode = await configuredTranscoder(testConfig(env), pino({ level: 'silent' }));
    t = await createTestApp(kind, { env, transcode });
    token = await loginAdmin(t);
  });
  afterAll(async () => {
    await stopRunner();
    await t.close();
  });

  async function save(path: string | Buffer) {
    const bytes = typeof path === 'string' ? readFileSync(path) : path;
    const key = `movies/${randomUUID()}.mp4`;
    await t.deps.storage.put(key, bytes, 'video/mp4');
    return t.request('POST', '/api/admin/movies', {
      token,
      body: {
        title: `Clip ${randomUUID().slice(0, 6)}`,
        category: 'English',
        rating: 'all',
        vj: 'VJ Test',
        movieS3Key: key,
        size: bytes.length,
      },
    });
  }

  async function renditionsOf(id: string): Promise<AdminRendition[]> {
    const res = await t.request('GET', '/api/admin/movies', { token });
    return (res.json.movies as AdminMovie[]).find((m) => m.id === id)?.renditions ?? [];
  }

  /** The rendition's pg-boss job, as pg-boss reports it (archived jobs included). */
  async function jobOf(movieId: string, kind: RenditionKind) {
    const queue = t.deps.transcode.queue!;
    const { rows } = await t.deps.database.executeSql(
      `select id from pgboss.job where name = $1 and singleton_key = $2 order by created_on desc limit 1`,
      [TRANSCODE_QUEUE, `${movieId}:${kind}`],
    );
    if (!rows[0]) return null;
    return queue.boss.getJobById<TranscodeJobData>(TRANSCODE_QUEUE, String(rows[0].id), { includeArchive: true });
  }

  it('says ffmpeg is there', async () => {
    const res = await t.request('GET', '/api/admin/system', { token });
    expect(res.json.transcoder.available).toBe(true);
  });

  it('refuses a damaged file and a sound-only file with a message, and saves nothing', async () => {
    for (const file of [fakeMp4(8192), audioOnly]) {
      const res = await save(file);
      expectErrorEnvelope(res, 400, 'bad_request', /could not be read as a video/);
    }
    expect(await t.deps.database.db.select().from(movies)).toHaveLength(0);
  });

  it('sends one pg-boss job per rendition to make; deleting the movie before any encode cancels them', async () => {
    const res = await save(sd);
    const movie = res.json.movie as AdminMovie;
    const job = await jobOf(movie.id, 'small');
    expect(job).toMatchObject({ state: 'created', data: { movieId: movie.id, kind: 'small' }, retryLimit: 2 });
    expect(job!.retryBackoff).toBe(true);
    // Skipped sizes get no job.
    expect(await jobOf(movie.id, 'hd')).toBeNull();
    // A duplicate send collapses into the queued job.
    expect(await t.deps.transcode.queue!.send(movie.id, 'small', 1)).toBeNull();
    const live = await t.deps.transcode.queue!.liveJobs(movie.id);
    expect(live.map((job) => job.kind).sort()).toEqual(['small', 'small-hevc']);
    const deleted = await t.request('DELETE', `/api/admin/movies/${movie.id}`, { token });
    expect(deleted.status).toBe(200);
    expect((await jobOf(movie.id, 'small'))!.state).toBe('cancelled');
    expect((await jobOf(movie.id, 'small-hevc'))!.state).toBe('cancelled');
    const rows = await t.deps.database.db.select().from(movieRenditions).where(eq(movieRenditions.movieId, movie.id));
    expect(rows.filter((r) => r.kind === 'small' || r.kind === 'small-hevc').map((r) => r.state)).toEqual([
      'cancelled',
      'cancelled',
    ]);
  });

  it('never upscales: a 480p upload gets the two Smalls only', async () => {
    const res = await save(sd);
    expect(res.status).toBe(201);
    const movie = res.json.movie as AdminMovie;
    expect(movie.renditions.map((r) => [r.kind, r.state])).toEqual([
      ['small', 'queued'],
      ['small-hevc', 'queued'],
      ['standard', 'skipped'],
      ['hd', 'skipped'],
    ]);
    const [row] = await t.deps.database.db.select().from(movies).where(eq(movies.id, movie.id));
    expect([row!.width, row!.height]).toEqual([854, 480]);
    // Not made in this test: out of the queue so the next test's runner does not spend time on it.
    await t.request('DELETE', `/api/admin/movies/${movie.id}`, { token });
  });

  it('makes both Smalls, Standard and HD of a 720p upload after the save: faststart, under the cap', async () => {
    const res = await save(hd);
    expect(res.status).toBe(201);
    const movie = res.json.movie as AdminMovie;
    expect(movie.renditions.every((r) => r.state === 'queued')).toBe(true);
    const [row] = await t.deps.database.db.select().from(movies).where(eq(movies.id, movie.id));
    expect(row!.durationSeconds).toBeCloseTo(4, 0);

    stopRunner = await startTranscodeRunner(t.deps);
    const done = await waitFor(
      'four ready renditions',
      async () => {
        const list = await renditionsOf(movie.id);
        if (list.some((r) => r.state === 'failed')) throw new Error(JSON.stringify(list));
        return list.every((r) => r.state === 'ready') ? list : null;
      },
      240_000,
    );
    const stored = await t.deps.database.db.select().from(movieRenditions).where(eq(movieRenditions.movieId, movie.id));
    for (const rendition of done) {
      const row = stored.find((r) => r.kind === rendition.kind)!;
      // Stored only encrypted (decision 0235): under a key of its own, unreadable as a video without the title's key.
      expect(row.storageKey).toMatch(new RegExp(`^renditions/${movie.id}/${rendition.kind}-[0-9a-f]{16}\\.filamu$`));
      expect(await t.deps.storage.head(renditionKey(movie.id, rendition.kind))).toBeNull();
      const encrypted = await t.deps.storage.transcodeInput(row.storageKey!, 60);
      // Random-looking bytes: ffprobe now and then guesses some raw stream in them, never the film's MP4.
      expect(probedFormat(encrypted)).not.toMatch(/mp4/);
      expect(topLevelBoxes(encrypted)).not.toContain('moov');
      const path = await plainCopyOf(t.deps.storage, t.deps.contentKeys, {
        movieId: movie.id,
        key: row.storageKey!,
        nonce: row.fileNonce!,
      });
      const facts = probeFile(path);
      expect(facts.height).toBe(RENDITION_TARGETS[rendition.kind].height);
      expect(rendition.height).toBe(facts.height);
      expect(facts.width % 2).toBe(0);
      expect(facts.profile.toLowerCase()).toBe(ladderStep(rendition.kind).profile);
      if (rendition.kind === 'small-hevc') {
        // HEVC Main tagged hvc1 with Opus (decision 0251), described in its hvcC box exactly as phones are asked.
        expect([facts.videoCodec, facts.videoTag]).toEqual(['hevc', 'hvc1']);
        expect(hevcCodecString(path)).toBe(SMALL_HEVC_DECODING.videoCodec);
        expect([facts.audioCodec, facts.audioChannels]).toEqual(['opus', 2]);
      } else {
        expect([facts.videoCodec, facts.videoTag]).toEqual(['h264', 'avc1']);
        expect([facts.audioCodec, facts.audioChannels]).toEqual(['aac', 2]);
      }
      // A keyframe at most every two seconds (and one frame), to the end: a seek lands close on a slow phone.
      const keyframes = [...keyframeTimes(path), facts.durationSeconds];
      expect(keyframes[0]).toBe(0);
      for (let i = 1; i < keyframes.length; i++) expect(keyframes[i]! - keyframes[i - 1]!).toBeLessThanOrEqual(2.05);
      const boxes = topLevelBoxes(path);
      expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
      // The cap bounds a file by its duration, a 4-second clip's as much as a film's (videoRateFor).
      const capBits = RENDITION_TARGETS[rendition.kind].maxTotalBitsPerSecond * facts.durationSeconds;
      expect(rendition.sizeBytes! * 8).toBeLessThanOrEqual(capBits);
      expect(rendition.sizeBytes).toBeGreaterThan(0);
    }
    // The original phones get is an encrypted copy too; the upload stays as the transcoder's source.
    const original = await waitFor('the original encrypted', async () => {
      const [m] = await t.deps.database.db.select().from(movies).where(eq(movies.id, movie.id));
      return m?.originalFileKey ? m : null;
    });
    const plainOriginal = await plainCopyOf(t.deps.storage, t.deps.contentKeys, {
      movieId: movie.id,
      key: original.originalFileKey!,
      nonce: original.originalFileNonce!,
    });
    expect(readFileSync(plainOriginal).equals(readFileSync(hd))).toBe(true);
    expect(
      readFileSync(await t.deps.storage.transcodeInput(original.originalFileKey!, 60)).equals(readFileSync(hd)),
    ).toBe(false);
    const admin = (await t.request('GET', '/api/admin/movies', { token })).json.movies as AdminMovie[];
    expect(admin.find((m) => m.id === movie.id)!.encryption).toEqual({ encrypted: 5, files: 5 });
    // No encoder output left behind.
    expect(readdirSync(join(t.deps.config.dataDir, 'transcode'))).toEqual([]);
  }, 300_000);

  it('retries only a failed rendition', async () => {
    const res = await save(sd);
    const movie = res.json.movie as AdminMovie;
    const db = t.deps.database.db;
    const where = and(eq(movieRenditions.movieId, movie.id), eq(movieRenditions.kind, 'small'));
    await waitFor('small ready', async () => (await renditionsOf(movie.id))[0]?.state === 'ready', 120_000);
    const again = await t.request('POST', `/api/admin/movies/${movie.id}/renditions/small/retry`, { token });
    expectErrorEnvelope(again, 409, 'conflict', /Only a failed rendition can be tried again; this one is ready/);
    await db
      .update(movieRenditions)
      .set({ state: 'failed', storageKey: null, sizeBytes: null, attempts: 3 })
      .where(where);
    const retried = await t.request('POST', `/api/admin/movies/${movie.id}/renditions/small/retry`, { token });
    expect(retried.status).toBe(200);
    const small = (retried.json.movie as AdminMovie).renditions.find((r) => r.kind === 'small')!;
    expect(['queued', 'encoding', 'ready']).toContain(small.state);
    await waitFor('small ready again', async () => (await renditionsOf(movie.id))[0]?.state === 'ready', 120_000);
  }, 300_000);

  it('a failing encode is retried by pg-boss with back-off, then failed with ffmpeg’s reason after the 3rd attempt', async () => {
    // No worker while the source is taken away, so the first attempt cannot have started before.
    await stopRunner();
    const res = await save(sd);
    const movie = res.json.movie as AdminMovie;
    // The source goes missing after the save: every attempt's ffprobe fails, for real.
    const [row] = await t.deps.database.db.select().from(movies).where(eq(movies.id, movie.id));
    await t.deps.storage.delete(row!.s3Key);
    stopRunner = await startTranscodeRunner(t.deps);
    const started = Date.now();
    const seen = new Set<string>();
    const small = await waitFor(
      'small failed',
      async () => {
        const job = await jobOf(movie.id, 'small');
        if (job) seen.add(`${job.state}:${job.retryCount}`);
        const list = await renditionsOf(movie.id);
        return list[0]?.state === 'failed' && job?.state === 'failed' ? { rendition: list[0], job } : null;
      },
      120_000,
    );
    expect(small.job.retryCount).toBe(2);
    // Waited for a retry in between (pg-boss's `retry` state), twice.
    expect(seen.has('retry:0') && seen.has('retry:1')).toBe(true);
    // Back-off: at least 1 s then 2 s (doubling from TRANSCODE_RETRY_DELAY_SECONDS, plus jitter).
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    expect(small.rendition.error).toMatch(/No such file|does not exist|not found|Invalid data/i);
    const [failed] = await t.deps.database.db
      .select()
      .from(movieRenditions)
      .where(and(eq(movieRenditions.movieId, movie.id), eq(movieRenditions.kind, 'small')));
    expect(failed!.attempts).toBe(3);
    await t.request('DELETE', `/api/admin/movies/${movie.id}`, { token });
  }, 180_000);

  it('stopping mid-encode (SIGTERM) hands the job back to pg-boss without using an attempt', async () => {
    const res = await save(hd);
    const movie = res.json.movie as AdminMovie;
    const db = t.deps.database.db;
    const encoding = await waitFor('an encode under way', async () => {
      const rows = await db.select().from(movieRenditions).where(eq(movieRenditions.movieId, movie.id));
      return rows.find((r) => r.state === 'encoding' && r.attempts === 1);
    });
    const before = await jobOf(movie.id, encoding.kind);
    expect(before!.state).toBe('active');
    await stopRunner();
    const [row] = await db
      .select()
      .from(movieRenditions)
      .where(and(eq(movieRenditions.movieId, movie.id), eq(movieRenditions.kind, encoding.kind)));
    expect([row!.state, row!.attempts, row!.error]).toEqual(['queued', 0, null]);
    // The interrupted job is cancelled and a new one waits with all three attempts; nothing else runs.
    const old = await t.deps.transcode.queue!.boss.getJobById(TRANSCODE_QUEUE, before!.id, { includeArchive: true });
    expect(old!.state).toBe('cancelled');
    const again = await jobOf(movie.id, encoding.kind);
    expect(again!.id).not.toBe(before!.id);
    expect([again!.state, again!.retryCount, again!.retryLimit]).toEqual(['created', 0, 2]);
    expect(again!.expireInSeconds).toBe(before!.expireInSeconds);
    expect(readdirSync(join(t.deps.config.dataDir, 'transcode'))).toEqual([]);
    stopRunner = await startTranscodeRunner(t.deps);
    await t.request('DELETE', `/api/admin/movies/${movie.id}`, { token });
  }, 120_000);

  it('deleting a movie mid-encode stops ffmpeg and leaves no rendition behind', async () => {
    const res = await save(hd);
    const movie = res.json.movie as AdminMovie;
    const db = t.deps.database.db;
    await waitFor('an encode under way', async () => {
      const rows = await db.select().from(movieRenditions).where(eq(movieRenditions.movieId, movie.id));
      return rows.some((r) => r.state === 'encoding');
    });
    const deleted = await t.request('DELETE', `/api/admin/movies/${movie.id}`, { token });
    expect(deleted.status).toBe(200);
    await waitFor(
      'the encoder to stop',
      async () => readdirSync(join(t.deps.config.dataDir, 'transcode')).length === 0,
      20_000,
    );
    // A moment for anything that was still going to land.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const rows = await db.select().from(movieRenditions).where(eq(movieRenditions.movieId, movie.id));
    expect(rows.every((r) => r.state === 'cancelled' || r.state === 'skipped')).toBe(true);
    // No pg-boss job of the movie left to run: the queued ones were cancelled. One whose encode was finishing as the
    // movie was deleted may end `completed`, but its rendition stayed cancelled (the attempt-guarded update above).
    expect(await t.deps.transcode.queue!.liveJobs(movie.id)).toEqual([]);
    for (const kind of RENDITION_KINDS)
      expect(['cancelled', 'completed']).toContain((await jobOf(movie.id, kind))?.state);
    const left = await t.deps.storage.list('renditions');
    expect(left.filter((o) => o.key.includes(movie.id))).toEqual([]);
  }, 120_000);
});
