import { createHash } from 'node:crypto';
import { AdminMovieResponse, DownloadUrlResponse, UploadUrlResponse } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningS3rver, startS3rver } from '../src/features/storage/s3rver.testing.ts';
import { type TestApp, createTestApp, loginAdmin, registerUser } from './harness.ts';
import { TINY_PNG, addMovie, addReadyRendition, createPlan, fakeMp4, subscribe } from './library.ts';

const MIB = 1024 * 1024;

/**
 * The whole app configured for S3 the way an operator would (S3_* variables), against a real
 * S3-protocol server: uploads and downloads go straight between the client and the store.
 */
describe('the app on S3 storage', () => {
  let s3: RunningS3rver;
  let t: TestApp;
  let adminToken: string;
  let planId: string;

  beforeAll(async () => {
    s3 = await startS3rver();
    t = await createTestApp('pglite', {
      env: {
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.config.credentials!.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.config.credentials!.secretAccessKey,
        S3_MULTIPART_THRESHOLD_BYTES: String(5 * MIB),
        CDN_BASE_URL: 'https://cdn.filamu.test/',
      },
    });
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const uploadUrl = (folder: string, fileType: string, fileSize: number) =>
    t.request('POST', '/api/admin/movies/generate-upload-url', {
      token: adminToken,
      body: { fileName: 'x', fileType, fileSize, folder },
    });

  async function uploadSingle(folder: string, fileType: string, bytes: Buffer) {
    const link = UploadUrlResponse.parse((await uploadUrl(folder, fileType, bytes.length)).json);
    expect(link.multipart).toBeNull();
    expect(link.presignedUrl).toContain(s3.endpoint);
    const put = await fetch(link.presignedUrl!, { method: 'PUT', headers: link.headers, body: bytes });
    expect(put.status).toBe(200);
    return link.s3Key;
  }

  it('uploads through presigned links, saves, and serves ranged downloads from S3', async () => {
    expect(t.deps.storage.driver).toBe('s3');
    expect(t.deps.fileServer).toBeNull();
    const bytes = fakeMp4(200_000);
    const movieS3Key = await uploadSingle('movies', 'video/mp4', bytes);
    const thumbnailS3Key = await uploadSingle('thumbnails', 'image/png', TINY_PNG);
    const saved = await t.request('POST', '/api/admin/movies', {
      token: adminToken,
      body: { title: 'Ekyama', category: 'Kinayuganda', rating: 'all', movieS3Key, thumbnailS3Key, planIds: [planId] },
    });
    expect(saved.status, saved.text).toBe(201);
    const { movie } = AdminMovieResponse.parse(saved.json);
    expect(movie.size).toBe(200_000);
    expect(movie.thumbnail_url).toBe(`https://cdn.filamu.test/${thumbnailS3Key}`);

    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, planId);
    const granted = DownloadUrlResponse.parse(
      (
        await t.request('POST', '/api/users/movies/generate-download-url', {
          token,
          body: { movieId: movie.id },
        })
      ).json,
    );
    expect(granted.fileSize).toBe(200_000);
    expect(granted.etag).toMatch(/^"/);
    const url = new URL(granted.downloadUrl);
    expect(url.origin).toBe(s3.endpoint);
    // A presigned link cannot be revoked: on S3 it lives 15 minutes at most (decision 0192).
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(url.searchParams.get('response-content-disposition')).toContain('Ekyama.mp4');
    const part = await fetch(granted.downloadUrl, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 1000-1999/200000');
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(1000, 2000));

    // Deleting the movie removes its objects from the bucket.
    expect((await t.request('DELETE', `/api/admin/movies/${movie.id}`, { token: adminToken })).status).toBe(200);
    expect(await t.deps.storage.head(movieS3Key)).toBeNull();
    expect(await t.deps.storage.head(thumbnailS3Key)).toBeNull();
  });

  it("serves Small from the bucket and counts what it cost from the client's reports, bounded", async () => {
    const added = await addMovie(t, adminToken, { planIds: [planId], size: 50_000 });
    const small = await addReadyRendition(t, added.movie.id, 'small', 10_000);
    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, planId);
    const granted = DownloadUrlResponse.parse(
      (
        await t.request('POST', '/api/users/movies/generate-download-url', {
          token,
          body: { movieId: added.movie.id, size: 'small' },
        })
      ).json,
    );
    expect(granted).toMatchObject({ size: 'small', fileSize: 10_000 });
    expect(new URL(granted.downloadUrl).pathname).toContain(small.key);
    const part = await fetch(granted.downloadUrl, { headers: { range: 'bytes=0-4999' } });
    expect(Buffer.from(await part.arrayBuffer())).toEqual(small.bytes.subarray(0, 5000));

    const report = (fetchedBytes: number, downloadedBytes = 5000) =>
      t.request('PUT', `/api/users/downloads/${granted.downloadId}/progress`, {
        token,
        body: { downloadedBytes, totalBytes: 10_000, fetchedBytes },
      });
    expect((await report(7000)).json).toMatchObject({ size: 'small', fetchedBytes: 7000 });
    // Never backwards, and one report adds at most one whole file.
    expect((await report(3000)).json).toMatchObject({ fetchedBytes: 7000 });
    expect((await report(1_000_000)).json).toMatchObject({ fetchedBytes: 17_000 });
  });

  it('keeps one live link window per download: a second link expires with the first, never later', async () => {
    const added = await addMovie(t, adminToken, { planIds: [planId], size: 20_000 });
    const small = await addReadyRendition(t, added.movie.id, 'small', 5_000);
    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, planId);
    const mint = async (body: Record<string, unknown> = {}) => {
      const res = await t.request('POST', '/api/users/movies/generate-download-url', {
        token,
        body: { movieId: added.movie.id, ...body },
      });
      expect(res.status, res.text).toBe(200);
      return DownloadUrlResponse.parse(res.json);
    };
    const expiresIn = (link: DownloadUrlResponse) =>
      Number(new URL(link.downloadUrl).searchParams.get('X-Amz-Expires'));
    const first = await mint();
    expect(Date.parse(first.expiresAt) - t.clock.now().getTime()).toBe(900_000);

    t.clock.advance(300_000);
    const second = await mint();
    // Same moment of expiry: asking again buys no time.
    expect(second.expiresAt).toBe(first.expiresAt);
    expect(expiresIn(second)).toBe(600);
    const part = await fetch(second.downloadUrl, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);

    // Another size is another file: its own window (the old link still dies with its own).
    const switched = await mint({ size: 'small' });
    expect(switched.fileSize).toBe(small.bytes.length);
    expect(Date.parse(switched.expiresAt) - t.clock.now().getTime()).toBe(900_000);

    // Once the window has lapsed, a fresh one.
    t.clock.advance(900_000);
    const later = await mint();
    expect(Date.parse(later.expiresAt) - t.clock.now().getTime()).toBe(900_000);
  });

  it('uploads a big movie in parts, re-minting part links, and completes it', async () => {
    const size = 2 * 16 * MIB + 1000;
    const bytes = fakeMp4(size);
    const link = UploadUrlResponse.parse((await uploadUrl('movies', 'video/mp4', size)).json);
    expect(link.presignedUrl).toBeNull();
    const multipart = link.multipart!;
    expect(multipart).toMatchObject({ partSize: 16 * MIB, partCount: 3 });
    expect(multipart.parts.map((p) => p.partNumber)).toEqual([1, 2, 3]);

    // Links lapse on a slow line: the admin asks for fresh ones for the parts still to send.
    const fresh = await t.request('POST', '/api/admin/movies/multipart/part-urls', {
      token: adminToken,
      body: { s3Key: link.s3Key, uploadId: multipart.uploadId, partNumbers: [2, 3] },
    });
    expect(fresh.status, fresh.text).toBe(200);
    const urls = new Map<number, string>([
      [1, multipart.parts[0]!.url],
      ...fresh.json.parts.map((p: { partNumber: number; url: string }) => [p.partNumber, p.url] as const),
    ]);
    const etags: { partNumber: number; etag: string }[] = [];
    for (const partNumber of [3, 1, 2]) {
      const body = bytes.subarray((partNumber - 1) * multipart.partSize, partNumber * multipart.partSize);
      const put = await fetch(urls.get(partNumber)!, { method: 'PUT', body });
      expect(put.status).toBe(200);
      etags.push({ partNumber, etag: put.headers.get('etag')! });
    }
    const completed = await t.request('POST', '/api/admin/movies/multipart/complete', {
      token: adminToken,
      body: { s3Key: link.s3Key, uploadId: multipart.uploadId, parts: etags },
    });
    expect(completed.status, completed.text).toBe(200);
    const head = await t.deps.storage.head(link.s3Key);
    expect(head?.size).toBe(size);
    const stored = Buffer.from(await t.deps.storage.readStart(link.s3Key, size));
    expect(createHash('sha256').update(stored).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));

    const saved = await t.request('POST', '/api/admin/movies', {
      token: adminToken,
      body: {
        title: 'Big One',
        category: 'Kinayuganda',
        rating: 'all',
        movieS3Key: link.s3Key,
        size,
        planIds: [planId],
      },
    });
    expect(saved.status, saved.text).toBe(201);
  });
});
