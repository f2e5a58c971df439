import { ListMultipartUploadsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAdmin, type TestApp, TestClock } from '../../../test/harness.ts';
import { createPlan, fakeMp4, TINY_PNG } from '../../../test/library.ts';
import { runStorageCleanup } from './cleanup.ts';
import { createS3Client } from './s3-client.ts';
import { listS3Uploads } from './s3-debris.ts';
import { type RunningS3rver, startS3rver } from './s3rver.testing.ts';
import { newObjectKey } from './storage.ts';

const HOUR = 3_600_000;

/**
 * The storage cleanup job on S3, against s3rver. s3rver has no ListMultipartUploads; s3rver.testing.ts adds one
 * that answers from s3rver's own upload folders in S3's XML (paged two at a time here), so the SDK call, the
 * paging and the aborts are real, while the listing's format is only as true as that stand-in (decision 0083).
 */
describe('storage cleanup on S3', () => {
  let s3: RunningS3rver;
  let t: TestApp;
  let adminToken: string;
  let planId: string;
  const client = () => createS3Client(s3.config);

  beforeAll(async () => {
    s3 = await startS3rver({ uploadsPageSize: 2 });
    t = await createTestApp('pglite', {
      clock: new TestClock(new Date().toISOString()),
      env: {
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.config.credentials!.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.config.credentials!.secretAccessKey,
      },
    });
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  async function pass() {
    t.clock.advance(t.deps.config.storage.cleanup.intervalMs);
    const report = await runStorageCleanup(t.deps);
    expect(report).not.toBeNull();
    return report!;
  }

  it('aborts multipart uploads initiated longer ago than their life, page after page; keeps young and foreign ones', async () => {
    const multipart = t.deps.storage.multipart!;
    const life = t.deps.config.storage.cleanup.multipartMaxAgeMs;
    const start = async () => {
      const key = newObjectKey('movies', 'video/mp4')!;
      return { key, uploadId: await multipart.create(key, 'video/mp4', { partSize: 5 * 1024 * 1024 }) };
    };
    const old = [await start(), await start(), await start()];
    const young = [await start(), await start()];
    const foreign = await multipart.create('backups/db.dump', 'application/octet-stream', { partSize: 0 });
    // Checked at the pass, after the clock moved by an interval.
    const longAgo = new Date(t.clock.now().getTime() - life - HOUR);
    for (const upload of old) await s3.setUploadInitiated(upload.uploadId, longAgo);
    await s3.setUploadInitiated(foreign, longAgo);

    const report = await pass();
    expect(report.multipartUploads).toEqual({ count: 3, bytes: 0 });
    expect(report.tempFiles).toEqual({ count: 0, bytes: 0 });
    const left = await listS3Uploads(client(), s3.bucket);
    expect(left.map((u) => u.uploadId).sort()).toEqual(young.map((u) => u.uploadId).sort());
    const all = await client().send(new ListMultipartUploadsCommand({ Bucket: s3.bucket }));
    expect(all.Uploads?.map((u) => u.UploadId)).toContain(foreign);
    await expect(multipart.complete(old[0]!.key, old[0]!.uploadId, [{ partNumber: 1, etag: '"x"' }])).rejects.toThrow();
  });

  it('removes unreferenced objects only once older than the orphan age plus an upload’s life (S3 dates them from its start)', async () => {
    const { orphanAgeMs, multipartMaxAgeMs } = t.deps.config.storage.cleanup;
    const put = async (folder: 'movies' | 'thumbnails') => {
      const key = newObjectKey(folder, folder === 'movies' ? 'video/mp4' : 'image/png')!;
      await t.deps.storage.put(
        key,
        folder === 'movies' ? fakeMp4(4000) : TINY_PNG,
        folder === 'movies' ? 'video/mp4' : 'image/png',
      );
      return key;
    };
    const movieKey = await put('movies');
    const thumbnailKey = await put('thumbnails');
    const saved = await t.request('POST', '/api/admin/movies', {
      token: adminToken,
      body: {
        title: 'Kept',
        category: 'English',
        rating: 'all',
        vj: 'VJ Ice P',
        movieS3Key: movieKey,
        thumbnailS3Key: thumbnailKey,
        planIds: [planId],
      },
    });
    expect(saved.status, saved.text).toBe(201);
    const orphanMovie = await put('movies');
    const orphanThumbnail = await put('thumbnails');
    await client().send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'movies/README.txt', Body: 'not ours' }));

    t.clock.advance(orphanAgeMs + HOUR);
    expect((await pass()).orphanObjects.count).toBe(0);
    expect(await t.deps.storage.head(orphanMovie)).not.toBeNull();

    t.clock.advance(multipartMaxAgeMs);
    const report = await pass();
    expect(report.orphanObjects).toEqual({ count: 2, bytes: 4000 + TINY_PNG.length });
    expect(await t.deps.storage.head(orphanMovie)).toBeNull();
    expect(await t.deps.storage.head(orphanThumbnail)).toBeNull();
    expect(await t.deps.storage.head(movieKey)).not.toBeNull();
    expect(await t.deps.storage.head(thumbnailKey)).not.toBeNull();
    expect(await t.deps.storage.head('movies/README.txt')).not.toBeNull();
    expect(report.failures).toBe(0);
  });
});
