import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentDisposition } from './content-disposition.ts';
import { S3StorageError } from './s3-errors.ts';
import { checkPresignedUrl, parseAmzDate } from './s3-sigv4.testing.ts';
import { createS3Storage } from './s3.ts';
import { S3RVER_CREDENTIALS, startS3rver, type RunningS3rver } from './s3rver.testing.ts';
import { newObjectKey, type MultipartStorage, type ObjectStorage } from './storage.ts';

const MiB = 1024 * 1024;
const PWA_ORIGIN = 'http://localhost:5173';
const SECRET = S3RVER_CREDENTIALS.secretAccessKey;

let s3: RunningS3rver;
let storage: ObjectStorage;
let multipart: MultipartStorage;

beforeAll(async () => {
  s3 = await startS3rver({ corsOrigins: [PWA_ORIGIN] });
  storage = createS3Storage(s3.config, { cdnBaseUrl: null });
  if (!storage.multipart) throw new Error('the S3 driver must support multipart uploads');
  multipart = storage.multipart;
});

afterAll(async () => {
  await s3?.close();
});

function movieKey(): string {
  return newObjectKey('movies', 'video/mp4')!;
}

/** Uploads through a presigned PUT with fetch, exactly as the admin page does. */
async function uploadMovie(body: Uint8Array): Promise<{ key: string; etag: string | null }> {
  const key = movieKey();
  const upload = await storage.presignPut(key, {
    contentType: 'video/mp4',
    maxBytes: body.length,
    expiresInSeconds: 900,
  });
  const response = await fetch(upload.url, { method: upload.method, headers: upload.headers, body });
  expect(response.status).toBe(200);
  return { key, etag: response.headers.get('etag') };
}

function sameBytes(actual: ArrayBuffer | Uint8Array, expected: Uint8Array): boolean {
  return Buffer.from(actual instanceof Uint8Array ? actual : new Uint8Array(actual)).equals(expected);
}

describe('presigned PUT', () => {
  it('uploads with fetch the way a browser does; head then reports size, the quoted ETag and the type', async () => {
    const body = randomBytes(1000);
    const { key, etag } = await uploadMovie(body);

    const info = await storage.head(key);
    expect(info).not.toBeNull();
    expect(info!.size).toBe(1000);
    expect(info!.etag).toMatch(/^"[^"]+"$/);
    expect(info!.etag).toBe(etag);
    expect(info!.contentType).toBe('video/mp4');
    expect(Math.abs(info!.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('binds Content-Type and Content-Length into the signature and tells the client the type to send', async () => {
    const key = movieKey();
    const upload = await storage.presignPut(key, { contentType: 'video/mp4', maxBytes: 1234, expiresInSeconds: 900 });
    const query = new URL(upload.url).searchParams;

    expect(upload.method).toBe('PUT');
    expect(upload.headers).toEqual({ 'Content-Type': 'video/mp4' });
    expect(query.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    expect(query.get('X-Amz-Expires')).toBe('900');
    // The SDK's default CRC32 would pin the checksum of an empty body into the URL (and S3 would then
    // refuse the real body); the client is configured not to add it.
    expect([...query.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);

    // s3rver does not check signatures, so recompute them the way S3 does.
    const put = (headers: Record<string, string>) => checkPresignedUrl(upload.url, SECRET, { method: 'PUT', headers });
    expect(put({ 'Content-Type': 'video/mp4', 'Content-Length': '1234' })).toEqual({ valid: true });
    expect(put({ 'Content-Type': 'image/svg+xml', 'Content-Length': '1234' })).toEqual({
      valid: false,
      reason: 'signature mismatch',
    });
    expect(put({ 'Content-Type': 'video/mp4', 'Content-Length': '1235' })).toMatchObject({ valid: false });
    expect(put({ 'Content-Length': '1234' })).toEqual({ valid: false, reason: 'missing signed header' });
    expect(checkPresignedUrl(upload.url, SECRET, { method: 'GET', headers: {} })).toMatchObject({ valid: false });
  });

  it('refuses lifetimes a SigV4 URL cannot carry and sizes that are not whole bytes', async () => {
    const options = { contentType: 'video/mp4', maxBytes: 10 };
    await expect(storage.presignPut(movieKey(), { ...options, expiresInSeconds: 0 })).rejects.toThrow(RangeError);
    await expect(storage.presignPut(movieKey(), { ...options, expiresInSeconds: 604_801 })).rejects.toThrow(RangeError);
    await expect(storage.presignPut(movieKey(), { ...options, expiresInSeconds: 1.5 })).rejects.toThrow(RangeError);
    await expect(
      storage.presignPut(movieKey(), { contentType: 'video/mp4', maxBytes: -1, expiresInSeconds: 60 }),
    ).rejects.toThrow(RangeError);
  });
});

describe('presigned GET', () => {
  const body = randomBytes(1000);
  let key: string;
  let url: string;

  beforeAll(async () => {
    ({ key } = await uploadMovie(body));
    url = await storage.presignGet(key, { expiresInSeconds: 600 });
  });

  it('serves the whole object with its ETag and Accept-Ranges', async () => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('etag')).toBe((await storage.head(key))!.etag);
    expect(sameBytes(await response.arrayBuffer(), body)).toBe(true);
  });

  it('answers a Range header with 206, Content-Range and exactly those bytes', async () => {
    const response = await fetch(url, { headers: { Range: 'bytes=10-99' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 10-99/1000');
    expect(response.headers.get('content-length')).toBe('90');
    expect(sameBytes(await response.arrayBuffer(), body.subarray(10, 100))).toBe(true);
  });

  it('answers an open-ended range (how a download resumes) with the rest of the object', async () => {
    const response = await fetch(url, { headers: { Range: 'bytes=900-' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 900-999/1000');
    expect(sameBytes(await response.arrayBuffer(), body.subarray(900))).toBe(true);
  });

  // S3 answers `bytes=-100` with the last 100 bytes. s3rver 3.7 parses it as `bytes=0-100`
  // (lib/controllers/object.js splits on "-" and reads the empty start as 0), so this RFC 9110
  // expectation fails against it. `it.fails` records the divergence; if s3rver is fixed it turns red.
  it.fails('answers a suffix range with the last bytes (s3rver 3.7 gets this wrong)', async () => {
    const response = await fetch(url, { headers: { Range: 'bytes=-100' } });
    expect(response.headers.get('content-range')).toBe('bytes 900-999/1000');
    expect(sameBytes(await response.arrayBuffer(), body.subarray(900))).toBe(true);
  });

  it('never signs a Range: one URL serves any range, and the signature only covers host', async () => {
    const query = new URL(url).searchParams;
    expect(query.get('X-Amz-SignedHeaders')).toBe('host');
    expect([...query.keys()].filter((name) => /range/i.test(name))).toEqual([]);
    for (const range of ['bytes=0-0', 'bytes=500-', 'bytes=123-456']) {
      expect(checkPresignedUrl(url, SECRET, { method: 'GET', headers: { Range: range } })).toEqual({ valid: true });
      expect((await fetch(url, { headers: { Range: range } })).status).toBe(206);
    }
  });

  it('carries X-Amz-Expires = the TTL, so the link dies TTL seconds after it was signed', async () => {
    const ttl = 3600;
    const before = Date.now();
    const shortLived = await storage.presignGet(key, { expiresInSeconds: ttl });
    const query = new URL(shortLived).searchParams;
    expect(query.get('X-Amz-Expires')).toBe(String(ttl));
    const signedAt = parseAmzDate(query.get('X-Amz-Date')!)!;
    expect(Math.abs(signedAt.getTime() - before)).toBeLessThan(5_000);

    const at = (offsetSeconds: number) => new Date(signedAt.getTime() + offsetSeconds * 1000);
    expect(checkPresignedUrl(shortLived, SECRET, { method: 'GET', at: at(ttl - 1) })).toEqual({ valid: true });
    expect(checkPresignedUrl(shortLived, SECRET, { method: 'GET', at: at(ttl + 1) })).toEqual({
      valid: false,
      reason: 'expired',
    });
  });

  it('is refused by the server once expired', async () => {
    // X-Amz-Date has whole seconds, so the link may be up to 1 s older than it looks: a 2-second link still has at
    // least one for its first fetch (a 1-second one was sometimes expired at once on a loaded machine).
    const twoSeconds = await storage.presignGet(key, { expiresInSeconds: 2 });
    expect((await fetch(twoSeconds)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    const response = await fetch(twoSeconds);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Request has expired');
  });

  it('returns Content-Disposition: attachment with the download name, signed into the URL', async () => {
    const downloadName = 'Ekyama kya "Kabaka" — Ép. 2 🎬.mp4';
    const named = await storage.presignGet(key, { expiresInSeconds: 600, downloadName });
    const response = await fetch(named, { headers: { Range: 'bytes=0-9' } });

    expect(response.status).toBe(206);
    expect(response.headers.get('content-disposition')).toBe(attachmentDisposition(downloadName));
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Ekyama kya _Kabaka_ _ Ep. 2 _.mp4"; ` +
        `filename*=UTF-8''Ekyama%20kya%20%22Kabaka%22%20%E2%80%94%20%C3%89p.%202%20%F0%9F%8E%AC.mp4`,
    );
    // The override is part of the signature: a link cannot be edited to serve another disposition.
    const edited = new URL(named);
    edited.searchParams.set('response-content-disposition', 'inline');
    expect(checkPresignedUrl(named, SECRET, { method: 'GET' })).toEqual({ valid: true });
    expect(checkPresignedUrl(edited.href, SECRET, { method: 'GET' })).toEqual({
      valid: false,
      reason: 'signature mismatch',
    });
  });
});

describe('bucket CORS (the rule docs/configuration.md documents)', () => {
  let url: string;

  beforeAll(async () => {
    const { key } = await uploadMovie(randomBytes(100));
    url = await storage.presignGet(key, { expiresInSeconds: 600 });
  });

  it('lets the PWA origin read ETag and Content-Range from a ranged GET', async () => {
    const response = await fetch(url, { headers: { Origin: PWA_ORIGIN, Range: 'bytes=0-9' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('access-control-allow-origin')).toBe(PWA_ORIGIN);
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'ETag, Content-Range, Accept-Ranges, Content-Length',
    );
  });

  it('gives other origins no CORS headers', async () => {
    const response = await fetch(url, { headers: { Origin: 'https://evil.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('passes the preflights of a resumed download and of an upload, and fails others', async () => {
    const preflight = (method: string, headers: string) =>
      fetch(url, {
        method: 'OPTIONS',
        headers: {
          Origin: PWA_ORIGIN,
          'Access-Control-Request-Method': method,
          'Access-Control-Request-Headers': headers,
        },
      });

    const resume = await preflight('GET', 'range,if-range');
    expect(resume.status).toBe(200);
    expect(resume.headers.get('access-control-allow-headers')).toBe('range, if-range');
    // s3rver answers preflights with `*`; S3 echoes the matching origin. Either lets the PWA through.
    expect(resume.headers.get('access-control-allow-origin')).toMatch(/^(\*|http:\/\/localhost:5173)$/);

    const upload = await preflight('PUT', 'content-type');
    expect(upload.status).toBe(200);
    expect(upload.headers.get('access-control-allow-methods')).toBe('GET, HEAD, PUT');

    expect((await preflight('DELETE', '')).status).toBe(403);
    expect((await preflight('GET', 'authorization')).status).toBe(403);
  });
});

describe('multipart upload', () => {
  it('uploads three presigned parts with fetch, completes, and the object is their concatenation', async () => {
    const key = movieKey();
    // S3's rule: every part but the last is at least 5 MiB (s3rver does not enforce it; S3 does).
    const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(12_345)];
    const uploadId = await multipart.create(key, 'video/mp4', { partSize: 5 * MiB });

    const uploaded: { partNumber: number; etag: string }[] = [];
    for (const [index, part] of parts.entries()) {
      const partNumber = index + 1;
      const url = await multipart.presignPart(key, uploadId, partNumber, 900);
      const query = new URL(url).searchParams;
      expect(query.get('partNumber')).toBe(String(partNumber));
      expect(query.get('uploadId')).toBe(uploadId);
      expect(query.get('X-Amz-Expires')).toBe('900');
      expect([...query.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);

      const response = await fetch(url, { method: 'PUT', body: part });
      expect(response.status).toBe(200);
      const etag = response.headers.get('etag');
      expect(etag).toMatch(/^"[^"]+"$/);
      uploaded.push({ partNumber, etag: etag! });
    }
    // Parts finish in any order in the browser; complete() must sort them.
    await multipart.complete(key, uploadId, [uploaded[2]!, uploaded[0]!, uploaded[1]!]);

    const info = await storage.head(key);
    const whole = Buffer.concat(parts);
    expect(info).toMatchObject({ size: whole.length, contentType: 'video/mp4' });
    const download = await fetch(await storage.presignGet(key, { expiresInSeconds: 60 }));
    expect(sameBytes(await download.arrayBuffer(), whole)).toBe(true);
  });

  it('abort discards the upload: it can no longer be completed and no object appears', async () => {
    const key = movieKey();
    const uploadId = await multipart.create(key, 'video/mp4', { partSize: 5 * MiB });
    const url = await multipart.presignPart(key, uploadId, 1, 900);
    const response = await fetch(url, { method: 'PUT', body: randomBytes(1000) });
    const etag = response.headers.get('etag')!;

    await multipart.abort(key, uploadId);

    await expect(multipart.complete(key, uploadId, [{ partNumber: 1, etag }])).rejects.toThrow(S3StorageError);
    expect(await storage.head(key)).toBeNull();
    // Aborting again (a retried cleanup) is not an error: the upload is already gone.
    await expect(multipart.abort(key, uploadId)).resolves.toBeUndefined();
  });

  it('refuses part numbers outside 1…10 000 and a completion without parts', async () => {
    await expect(multipart.presignPart(movieKey(), 'id', 0, 60)).rejects.toThrow(RangeError);
    await expect(multipart.presignPart(movieKey(), 'id', 10_001, 60)).rejects.toThrow(RangeError);
    await expect(multipart.complete(movieKey(), 'id', [])).rejects.toThrow(RangeError);
  });
});

describe('server-side operations', () => {
  it('put then readStart returns the first bytes, or the whole object when it is shorter', async () => {
    const key = movieKey();
    const body = randomBytes(64);
    await storage.put(key, body, 'video/mp4');

    expect(sameBytes(await storage.readStart(key, 12), body.subarray(0, 12))).toBe(true);
    expect(sameBytes(await storage.readStart(key, 1000), body)).toBe(true);
    expect(await storage.head(key)).toMatchObject({ size: 64, contentType: 'video/mp4' });
  });

  it('readStart of zero bytes is empty without asking S3', async () => {
    expect((await storage.readStart(movieKey(), 0)).length).toBe(0);
  });

  // S3 answers any Range over an empty object with 416 InvalidRange, which readStart turns into an
  // empty result. s3rver 3.7 instead sends `206, Content-Length: 1` and no body, so the SDK sees an
  // aborted response; this case can only be checked against S3 itself.
  it.skip('readStart of an empty object is empty (not testable on s3rver)', async () => {
    const key = movieKey();
    await storage.put(key, new Uint8Array(0), 'video/mp4');
    expect((await storage.readStart(key, 12)).length).toBe(0);
  });

  it('readStart of a missing key throws a clear error', async () => {
    const key = movieKey();
    await expect(storage.readStart(key, 12)).rejects.toThrow(`S3 GET (start) ${key} failed: NoSuchKey (HTTP 404)`);
  });

  it('delete removes the object; deleting a missing key is fine', async () => {
    const { key } = await uploadMovie(randomBytes(10));
    await storage.delete(key);
    expect(await storage.head(key)).toBeNull();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('head of a missing key is null', async () => {
    expect(await storage.head(movieKey())).toBeNull();
  });

  it('publicUrl is the CDN URL when one is configured, else null (callers presign)', () => {
    const key = newObjectKey('thumbnails', 'image/webp')!;
    expect(storage.publicUrl(key)).toBeNull();
    const withCdn = createS3Storage(s3.config, { cdnBaseUrl: 'https://cdn.filamu.ug/' });
    expect(withCdn.publicUrl(key)).toBe(`https://cdn.filamu.ug/${key}`);
  });

  it('wraps S3 failures in S3StorageError without the credentials', async () => {
    const leakyKeys = { accessKeyId: 'AKIAFILAMULEAKTEST01', secretAccessKey: 'filamu-secret-must-not-appear' };
    const wrongKeys = createS3Storage({ ...s3.config, credentials: leakyKeys }, { cdnBaseUrl: null });
    const error = await wrongKeys.put(movieKey(), new Uint8Array(1), 'video/mp4').then(
      () => null,
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(S3StorageError);
    const storageError = error as S3StorageError;
    expect(storageError).toMatchObject({ operation: 'PUT', code: 'InvalidAccessKeyId', httpStatus: 403 });
    const everything = `${storageError.message}\n${storageError.stack}\n${JSON.stringify(storageError)}`;
    expect(everything).not.toContain(leakyKeys.secretAccessKey);
    expect(everything).not.toContain(leakyKeys.accessKeyId);
    expect(storageError.cause).toBeUndefined();

    const noBucket = createS3Storage({ ...s3.config, bucket: 'no-such-bucket' }, { cdnBaseUrl: null });
    await expect(noBucket.put(movieKey(), new Uint8Array(1), 'video/mp4')).rejects.toThrow(/NoSuchBucket \(HTTP 404\)/);
  });
});

describe('attachmentDisposition', () => {
  it('gives an ASCII filename and an RFC 5987 filename* for any title', () => {
    expect(attachmentDisposition('Plain.mp4')).toBe(`attachment; filename="Plain.mp4"; filename*=UTF-8''Plain.mp4`);
    expect(attachmentDisposition("Tom's (2024) *cut*.mp4")).toBe(
      `attachment; filename="Tom's (2024) *cut*.mp4"; filename*=UTF-8''Tom%27s%20%282024%29%20%2Acut%2A.mp4`,
    );
    expect(attachmentDisposition('a\\b\r\n.mp4')).toBe(
      `attachment; filename="a_b__.mp4"; filename*=UTF-8''a%5Cb%0D%0A.mp4`,
    );
    expect(attachmentDisposition('🎬')).toBe(`attachment; filename="_"; filename*=UTF-8''%F0%9F%8E%AC`);
    expect(attachmentDisposition('  ')).toBe(`attachment; filename="download"; filename*=UTF-8''%20%20`);
    // Half of a surrogate pair (a title cut mid-emoji) must not throw.
    expect(attachmentDisposition('x\uD83C.mp4')).toContain(`filename*=UTF-8''x%EF%BF%BD.mp4`);
  });

  it('is always a valid header value whose filename* decodes back to the title', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (title) => {
        const header = attachmentDisposition(title);
        expect(header).toMatch(
          /^attachment; filename="[\x20\x21\x23-\x5b\x5d-\x7e]+"; filename\*=UTF-8''[A-Za-z0-9!#$&+\-.^_`|~%]*$/,
        );
        const encoded = header.slice(header.indexOf("UTF-8''") + "UTF-8''".length);
        expect(decodeURIComponent(encoded)).toBe(title);
      }),
    );
  });
});
