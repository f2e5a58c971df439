import { createHash } from 'node:crypto';
import { AdminMovieResponse, MultipartPartUrlsResponse, UploadUrlResponse } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, expectErrorEnvelope, loginAdmin, testDatabases } from '../../../test/harness.ts';
import { createPlan, fakeMp4 } from '../../../test/library.ts';

/** The admin's multipart flow through the API on the local driver (the embedded default), as the PWA drives it. */

const MiB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(testDatabases)('local multipart uploads through the API on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let planId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      env: { S3_MULTIPART_THRESHOLD_BYTES: String(5 * MiB), UPLOAD_PART_SIZE_BYTES: String(5 * MiB) },
    });
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
  });
  afterAll(() => t.close());

  const post = (path: string, body: unknown) =>
    t.request('POST', `/api/admin/movies${path}`, { token: adminToken, body });
  const putPart = (url: string, body: Uint8Array | ReadableStream<Uint8Array>) => {
    const { pathname, search } = new URL(url, 'http://local');
    return t.app.request(`${pathname}${search}`, { method: 'PUT', body, duplex: 'half' } as RequestInit);
  };
  /** A body that sends `bytes` and then breaks, as a connection lost mid-part. */
  const brokenBody = (bytes: Uint8Array) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
      },
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });

  it('uploads a movie in parts, survives a part cut off mid-body, re-mints links and saves it byte-exact', async () => {
    const movie = fakeMp4(11 * MiB + 321);
    const res = await post('/generate-upload-url', {
      fileName: 'big.mp4',
      fileType: 'video/mp4',
      fileSize: movie.length,
      folder: 'movies',
    });
    expect(res.status, res.text).toBe(200);
    const link = UploadUrlResponse.parse(res.json);
    expect(link.presignedUrl).toBeNull();
    expect(link.multipart).toMatchObject({ partSize: 5 * MiB, partCount: 3 });
    expect(link.multipart!.parts.map((part) => new URL(part.url).pathname)).toEqual(
      Array(3).fill(`/files/${link.s3Key}`),
    );
    const { uploadId, parts } = link.multipart!;
    const slice = (n: number) => movie.subarray((n - 1) * 5 * MiB, n * 5 * MiB);

    const first = await putPart(parts[0]!.url, slice(1));
    expect(first.status).toBe(200);
    const cut = await putPart(parts[1]!.url, brokenBody(slice(2).subarray(0, MiB)));
    expect(cut.status).toBe(400);
    expect(((await cut.json()) as { error: { message: string } }).error.message).toBe(
      'The upload was interrupted before it was complete. Please try again.',
    );

    // The links lapse while the admin's laptop sleeps; fresh ones carry on from the finished part.
    t.clock.advance(16 * 60_000);
    expect((await putPart(parts[1]!.url, slice(2))).status).toBe(403);
    const fresh = MultipartPartUrlsResponse.parse(
      (await post('/multipart/part-urls', { s3Key: link.s3Key, uploadId, partNumbers: [2, 3] })).json,
    );
    const second = await putPart(fresh.parts[0]!.url, slice(2));
    const third = await putPart(fresh.parts[1]!.url, slice(3));
    expect([second.status, third.status]).toEqual([200, 200]);

    const done = await post('/multipart/complete', {
      s3Key: link.s3Key,
      uploadId,
      parts: [
        { partNumber: 3, etag: third.headers.get('etag') },
        { partNumber: 1, etag: first.headers.get('etag') },
        { partNumber: 2, etag: second.headers.get('etag') },
      ],
    });
    expect(done.status, done.text).toBe(200);
    const saved = await post('', {
      title: 'Long Movie',
      vj: 'VJ Junior',
      category: 'English',
      rating: '13',
      movieS3Key: link.s3Key,
      planIds: [planId],
    });
    expect(saved.status, saved.text).toBe(201);
    expect(AdminMovieResponse.parse(saved.json).movie.size).toBe(movie.length);

    const stored = Buffer.from(await t.deps.storage.readStart(link.s3Key, movie.length + 1));
    expect(sha256(stored)).toBe(sha256(movie));
  });

  it('answers 400 for an upload that was aborted, and abort twice is fine', async () => {
    const link = UploadUrlResponse.parse(
      (
        await post('/generate-upload-url', {
          fileName: 'a.mp4',
          fileType: 'video/mp4',
          fileSize: 6 * MiB,
          folder: 'movies',
        })
      ).json,
    );
    const { uploadId } = link.multipart!;
    expect((await post('/multipart/abort', { s3Key: link.s3Key, uploadId })).status).toBe(200);
    expect((await post('/multipart/abort', { s3Key: link.s3Key, uploadId })).status).toBe(200);
    expectErrorEnvelope(
      await post('/multipart/part-urls', { s3Key: link.s3Key, uploadId, partNumbers: [1] }),
      400,
      'bad_request',
      'This upload has ended or was cancelled. Start the upload again.',
    );
    expectErrorEnvelope(
      await post('/multipart/complete', { s3Key: link.s3Key, uploadId, parts: [{ partNumber: 1, etag: '"x"' }] }),
      400,
      'bad_request',
    );
  });

  it('keeps small movies and thumbnails on a single PUT', async () => {
    const link = UploadUrlResponse.parse(
      (
        await post('/generate-upload-url', {
          fileName: 'a.mp4',
          fileType: 'video/mp4',
          fileSize: 5 * MiB,
          folder: 'movies',
        })
      ).json,
    );
    expect(link.multipart).toBeNull();
    expect(new URL(link.presignedUrl!).pathname).toMatch(/^\/files\/movies\//);
  });
});
