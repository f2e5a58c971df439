import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdminMovie, AdminRendition } from '@filamu/shared';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorEnvelope, loginAdmin, testConfig, type TestApp } from '../../../test/harness.ts';
import { configuredTranscoder } from '../../bootstrap.ts';
import { type RunningS3rver, startS3rver } from '../storage/s3rver.testing.ts';
import { and, eq } from 'drizzle-orm';
import { movieRenditions } from '../../db/schema.ts';
import { plainCopyOf } from '../content-keys/film-files.testing.ts';
import { renditionKey } from '../storage/storage.ts';
import { makeAudioOnly, makeClip } from './clips.testing.ts';
import { startTranscodeRunner } from './runner.ts';

/** On S3, ffprobe and ffmpeg read the upload through a presigned link and the rendition goes up in one PUT. */
describe('renditions on S3 storage', () => {
  const clips = mkdtempSync(join(tmpdir(), 'filamu-s3-clips-'));
  let s3: RunningS3rver;
  let t: TestApp;
  let token: string;
  let stopRunner: () => Promise<void> = async () => {};

  beforeAll(async () => {
    s3 = await startS3rver();
    const env = {
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.config.credentials!.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.config.credentials!.secretAccessKey,
      TRANSCODE_CONCURRENCY: '1',
    };
    const transcode = await configuredTranscoder(testConfig(env), pino({ level: 'silent' }));
    t = await createTestApp('pglite', { env, transcode });
    token = await loginAdmin(t);
  });
  afterAll(async () => {
    await stopRunner();
    await t?.close();
    await s3?.close();
    rmSync(clips, { recursive: true, force: true });
  });

  async function save(path: string) {
    const bytes = readFileSync(path);
    const key = `movies/${randomUUID()}.mp4`;
    await t.deps.storage.put(key, bytes, 'video/mp4');
    return t.request('POST', '/api/admin/movies', {
      token,
      body: { title: 'On S3', category: 'English', rating: 'all', vj: 'VJ Test', movieS3Key: key, size: bytes.length },
    });
  }

  it('refuses a sound-only upload read over a presigned link', async () => {
    expectErrorEnvelope(await save(makeAudioOnly(clips, 'sound.mp4')), 400, 'bad_request', /could not be read/);
  });

  it('makes Small from the object and stores it under renditions/', async () => {
    const res = await save(makeClip(clips, 'sd.mp4', { width: 640, height: 480, seconds: 1 }));
    expect(res.status).toBe(201);
    const movie = res.json.movie as AdminMovie;
    stopRunner = await startTranscodeRunner(t.deps);
    let small: AdminRendition | undefined;
    const until = Date.now() + 120_000;
    while (small?.state !== 'ready') {
      if (Date.now() > until || small?.state === 'failed') throw new Error(JSON.stringify(small));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const list = await t.request('GET', '/api/admin/movies', { token });
      small = (list.json.movies as AdminMovie[]).find((m) => m.id === movie.id)!.renditions[0];
    }
    const [row] = await t.deps.database.db
      .select()
      .from(movieRenditions)
      .where(and(eq(movieRenditions.movieId, movie.id), eq(movieRenditions.kind, 'small')));
    const key = row!.storageKey!;
    expect(key.startsWith(`renditions/${movie.id}/small-`)).toBe(true);
    expect(await t.deps.storage.head(renditionKey(movie.id, 'small'))).toBeNull();
    const head = await t.deps.storage.head(key);
    expect(head?.size).toBe(small.sizeBytes);
    // Asynchronously: the S3 server runs in this process, so a blocking ffprobe would never get an answer.
    const { transcoder } = t.deps.transcode;
    // Encrypted on S3 (decision 0235): its presigned link gives no video without the title's key, the film with it.
    await expect(transcoder!.probe(await t.deps.storage.transcodeInput(key, 600))).rejects.toThrow();
    const plain = await plainCopyOf(t.deps.storage, t.deps.contentKeys, {
      movieId: movie.id,
      key,
      nonce: row!.fileNonce!,
    });
    const probed = await transcoder!.probe(plain);
    expect([probed.height, probed.videoCodec, probed.hasAudio]).toEqual([360, 'h264', true]);
  }, 180_000);
});
