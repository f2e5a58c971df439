/**
 * A real S3-protocol server for tests: s3rver on 127.0.0.1 at a free port, storing into a fresh temp
 * directory, with one bucket and the bucket CORS rule docs/configuration.md documents. Reused by the storage
 * driver tests and by integration tests that run the whole app on S3.
 *
 * s3rver does not verify SigV4 signatures (it checks the presigned URL's shape and expiry only), so
 * tests must prove what is signed by reading the URL, not by expecting S3 to refuse a tampered request.
 */
import { mkdtemp, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Config } from '../../config.ts';

/** The one key pair s3rver knows (hard-coded in s3rver/lib/models/account.js). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** The bucket CORS rule, in the shape `aws s3api put-bucket-cors --cors-configuration` takes. */
interface BucketCorsRule {
  AllowedOrigins: string[];
  AllowedMethods: string[];
  AllowedHeaders: string[];
  ExposeHeaders: string[];
  MaxAgeSeconds: number;
}

/**
 * What the PWA needs from the bucket: GET/HEAD for downloads (Range and If-Range preflight), PUT for
 * presigned uploads (Content-Type is always preflighted on a PUT), and the headers a resumable
 * download and a multipart upload must read from the response (ETag, Content-Range…).
 */
function filamuCorsRule(allowedOrigins: string[]): BucketCorsRule {
  return {
    AllowedOrigins: allowedOrigins,
    AllowedMethods: ['GET', 'HEAD', 'PUT'],
    AllowedHeaders: ['Range', 'If-Range', 'Content-Type'],
    ExposeHeaders: ['ETag', 'Content-Range', 'Accept-Ranges', 'Content-Length'],
    MaxAgeSeconds: 3600,
  };
}

/** The same rule as S3's `CORSConfiguration` XML (what `PUT ?cors` and s3rver's bucket config take). */
function corsConfigurationXml(rule: BucketCorsRule): string {
  const elements = (tag: string, values: string[]) => values.map((value) => `    <${tag}>${escapeXml(value)}</${tag}>`);
  return [
    '<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
    '  <CORSRule>',
    ...elements('AllowedOrigin', rule.AllowedOrigins),
    ...elements('AllowedMethod', rule.AllowedMethods),
    ...elements('AllowedHeader', rule.AllowedHeaders),
    ...elements('ExposeHeader', rule.ExposeHeaders),
    `    <MaxAgeSeconds>${rule.MaxAgeSeconds}</MaxAgeSeconds>`,
    '  </CORSRule>',
    '</CORSConfiguration>',
  ].join('\n');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export interface RunningS3rver {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  /** Ready for `createS3Storage(config, …)` (path-style, s3rver's key pair). */
  config: S3Config;
  /** The origins the bucket's CORS rule allows. */
  corsOrigins: string[];
  /** Where s3rver keeps the objects; removed by `close()`. */
  directory: string;
  /** Moves a multipart upload's `Initiated` (as the added ListMultipartUploads reports it) to `at`. */
  setUploadInitiated(uploadId: string, at: Date): Promise<void>;
  close(): Promise<void>;
}

export interface S3rverOptions {
  bucket?: string;
  /** Origins the bucket CORS rule allows; default the PWA dev server. */
  corsOrigins?: string[];
  /** Page size of the added ListMultipartUploads (S3's is 1,000); small values exercise paging. */
  uploadsPageSize?: number;
}

/** Starts s3rver; `await close()` it in `afterAll`. */
export async function startS3rver(options: S3rverOptions = {}): Promise<RunningS3rver> {
  const bucket = options.bucket ?? 'filamu-test';
  const corsOrigins = options.corsOrigins ?? ['http://localhost:5173'];
  const directory = await mkdtemp(join(tmpdir(), 'filamu-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    // Needed for the V2-signed and anonymous paths only; V4 signatures are never checked by s3rver.
    allowMismatchedSignatures: true,
    configureBuckets: [{ name: bucket, configs: [corsConfigurationXml(filamuCorsRule(corsOrigins))] }],
  });
  // Must be in place before run(): Koa composes its middleware when the HTTP server is created.
  server.middleware.unshift(
    abortMultipartUpload(server),
    listMultipartUploads(server, options.uploadsPageSize ?? 1000),
  );
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    config: { bucket, region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { ...S3RVER_CREDENTIALS } },
    corsOrigins,
    directory,
    async setUploadInitiated(uploadId, at) {
      await utimes(join(uploadsFolder(server, bucket), uploadId, 'key'), at, at);
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

// ---- s3rver has no type declarations; these describe the few members used here. ----

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

interface S3rverInstance {
  /** Koa's middleware list (s3rver extends Koa). */
  middleware: KoaMiddleware[];
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}

interface S3rverConstructorOptions {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  allowMismatchedSignatures: boolean;
  configureBuckets: { name: string; configs: string[] }[];
}

const S3rver = createRequire(import.meta.url)('s3rver') as new (options: S3rverConstructorOptions) => S3rverInstance;

/** s3rver's folder of one bucket's multipart uploads in progress (one folder per upload id). */
function uploadsFolder(server: S3rverInstance, bucket: string): string {
  return server.store.getResourcePath(bucket, undefined, 'uploads');
}

/**
 * s3rver 3.7 answers ListMultipartUploads (`GET /<bucket>?uploads`) with NotImplemented. This answers it from
 * s3rver's own upload folders, in S3's documented XML: uploads sorted by key then id, `key-marker` and
 * `upload-id-marker` paging, `Initiated` from the time s3rver wrote the upload's `key` file (tests may backdate
 * it with utimes). Only what the cleanup job reads is implemented (no prefix, delimiter or max-uploads).
 */
function listMultipartUploads(server: S3rverInstance, pageSize: number): KoaMiddleware {
  return async (ctx, next) => {
    const segments = ctx.path.split('/').filter(Boolean);
    if (ctx.method !== 'GET' || !('uploads' in ctx.query) || segments.length !== 1) return next();
    const bucket = decodeURIComponent(segments[0]!);
    const folder = uploadsFolder(server, bucket);
    const ids = await readdir(folder).catch(() => [] as string[]);
    const uploads = [];
    for (const uploadId of ids) {
      const keyFile = join(folder, uploadId, 'key');
      const key = await readFile(keyFile, 'utf8').catch(() => null);
      if (key === null) continue;
      uploads.push({ key, uploadId, initiated: (await stat(keyFile)).mtime });
    }
    uploads.sort((a, b) => (a.key === b.key ? cmp(a.uploadId, b.uploadId) : cmp(a.key, b.key)));
    const keyMarker = typeof ctx.query['key-marker'] === 'string' ? ctx.query['key-marker'] : '';
    const idMarker = typeof ctx.query['upload-id-marker'] === 'string' ? ctx.query['upload-id-marker'] : '';
    const after = uploads.filter(
      (u) => !keyMarker || u.key > keyMarker || (u.key === keyMarker && !!idMarker && u.uploadId > idMarker),
    );
    const page = after.slice(0, pageSize);
    const truncated = after.length > page.length;
    const last = page.at(-1);
    ctx.status = 200;
    ctx.type = 'application/xml';
    ctx.body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
      `<Bucket>${escapeXml(bucket)}</Bucket>`,
      `<KeyMarker>${escapeXml(keyMarker)}</KeyMarker><UploadIdMarker>${escapeXml(idMarker)}</UploadIdMarker>`,
      truncated && last
        ? `<NextKeyMarker>${escapeXml(last.key)}</NextKeyMarker><NextUploadIdMarker>${last.uploadId}</NextUploadIdMarker>`
        : '',
      `<MaxUploads>${pageSize}</MaxUploads><IsTruncated>${truncated}</IsTruncated>`,
      ...page.map(
        (u) =>
          `<Upload><Key>${escapeXml(u.key)}</Key><UploadId>${u.uploadId}</UploadId>` +
          `<Initiated>${u.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
      ),
      '</ListMultipartUploadsResult>',
    ].join('');
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * s3rver 3.7 does not implement AbortMultipartUpload (`DELETE /<bucket>/<key>?uploadId=…` answers
 * 405 MethodNotAllowed). This adds it the way S3 does it: discard the parts, 204; unknown upload → 404
 * NoSuchUpload. It removes s3rver's own upload folder, so a later CompleteMultipartUpload fails too.
 */
function abortMultipartUpload(server: S3rverInstance): KoaMiddleware {
  return async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    const bucket = ctx.path.split('/')[1];
    if (ctx.method !== 'DELETE' || typeof uploadId !== 'string' || !bucket) return next();
    // s3rver's upload ids are 32 hex digits; anything else cannot name an upload (nor a path).
    const uploadDir = /^[0-9a-f]{32}$/.test(uploadId)
      ? join(uploadsFolder(server, decodeURIComponent(bucket)), uploadId)
      : null;
    const existed =
      uploadDir !== null &&
      (await rm(uploadDir, { recursive: true }).then(
        () => true,
        () => false,
      ));
    if (existed) {
      ctx.status = 204;
      return;
    }
    ctx.status = 404;
    ctx.type = 'application/xml';
    ctx.body =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code>' +
      '<Message>The specified upload does not exist.</Message></Error>';
  };
}
