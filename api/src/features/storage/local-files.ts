// Longer than 300 lines on purpose: the local driver's whole HTTP face (/files: signed GET with ranges, thumbnails,
// signed PUT) shares one set of checks on the signature and the path.
import { AsyncResource } from 'node:async_hooks';
import type { BigIntStats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../http/env.ts';
import { AppError, conflict, handleError, notFound } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { fileBody } from './local-file-body.ts';
import { etagOf, isMissing, ObjectExistsError, objectPath, statObject } from './local-objects.ts';
import { checkLink, hasSignature, type LinkFields } from './local-signing.ts';
import { receiveUpload, UploadInterruptedError, UploadTooLargeError } from './local-upload.ts';
import { decideRange } from './ranges.ts';
import { attachmentDisposition } from './content-disposition.ts';
import { contentTypeOfKey, type FileGrants, isPublicKey, isServerKey, UnknownUploadError } from './storage.ts';
import { receivePart } from './local-multipart.ts';
import type { FileTraffic } from '../metrics/registry.ts';

/**
 * The `/files` server of the local driver: signed, ranged GET/HEAD of objects (RFC 9110 §14), public thumbnails,
 * and signed PUT uploads. Every refusal uses the API's JSON error envelope.
 */

export interface FileServerOptions {
  dir: string;
  secret: string;
  clock: Clock;
  /** Second origins allowed to read and upload cross-origin (same-origin needs nothing). */
  corsOrigins: string[];
  /** Counts the bytes served and stored (the app's metrics); optional for tools that mount the server alone. */
  traffic?: FileTraffic;
  /** The app's download grants; without them (a tool mounting the server alone) the signature alone decides. */
  grants?: FileGrants;
}

/** Signed links are capabilities: no shared cache may keep one, and no proxy may recompress video (no-transform). */
const SIGNED_CACHE_CONTROL = 'private, no-store, no-transform';
/** Thumbnail keys are unguessable and never rewritten, so they are public and cacheable forever, like a CDN's. */
const PUBLIC_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const CORS_ALLOWED_METHODS = 'GET, HEAD, PUT';
/** Range is safelisted only in its simplest forms, If-Range never (reference §5.2): both must be allowed. */
const CORS_ALLOWED_HEADERS = 'Range, If-Range, Content-Type';
/** Scripts on the second origin read these to resume and verify a download (reference §7.6). */
const CORS_EXPOSED_HEADERS = 'ETag, Content-Range, Accept-Ranges, Content-Length, Content-Disposition';
/** Chromium caps a preflight cache at two hours. */
const CORS_MAX_AGE_SECONDS = '7200';

/** How often a response under way asks again whether its grant stands (answered from the app's verdict cache). */
const RECHECK_EVERY_MS = 5_000;

const invalidLink = () => new AppError('forbidden', 'This link is invalid or has expired.');
/** The PWA asks for a fresh link on any 403 from storage; the grant rules then say why, in their own words. */
const revokedLink = () => new AppError('forbidden', 'This download link is no longer valid. Ask for a new one.');
const missingFile = () => notFound('File');

/** 416 has no error code of its own in the shared list; the envelope says bad_request, the status says 416. */
class RangeNotSatisfiableError extends AppError {
  constructor() {
    super('bad_request', 'The requested range is not satisfiable.');
  }

  override get status(): number {
    return 416;
  }
}

export function createFileServer(options: FileServerOptions): Hono<AppEnv> {
  const files = new Hono<AppEnv>();
  files.onError(handleError);
  files.use('*', filesCors(options.corsOrigins));
  files.use('*', filesHeaders);
  files.get('/:folder/:file', (c) => serveObject(c, options));
  // Posters sit a level deeper (`posters/<movieId>/<width>.webp`); only ever read, never uploaded.
  files.get('/posters/:movie/:file', (c) => serveObject(c, options));
  // Renditions too (`renditions/<movieId>/<kind>.mp4`), under signed links only, like the movies they are made from.
  files.get('/renditions/:renditionOf/:file', (c) => serveObject(c, options));
  files.put('/:folder/:file', (c) => receiveObject(c, options));
  files.all('*', (c) => {
    if (['GET', 'HEAD', 'PUT'].includes(c.req.method)) throw missingFile();
    throw new AppError('method_not_allowed', 'Method not allowed.');
  });
  return files;
}

/** GET and HEAD (Hono routes a HEAD to the GET handler; the handler then sends no body). */
async function serveObject(c: Context<AppEnv>, options: FileServerOptions): Promise<Response> {
  const key = keyOf(c);
  const path = objectPath(options.dir, key);
  if (!path) throw missingFile();
  const link = readAccess(c, key, options);
  if (link?.grant && options.grants) {
    // Checked per request (cached a few seconds by the app): a link dies with its session, subscription or movie.
    const allowed = link.holder ? await options.grants.allows({ grant: link.grant, holder: link.holder, key }) : false;
    if (!allowed) throw revokedLink();
  }
  const file = await openObject(path);
  if (!file) throw missingFile();

  let bodyOwnsFile = false;
  try {
    const size = Number(file.stats.size);
    const etag = etagOf(file.stats);
    c.header('Accept-Ranges', 'bytes');
    const decision = decideRange({
      method: c.req.method,
      range: c.req.header('Range'),
      ifRange: c.req.header('If-Range'),
      etag,
      size,
    });
    if (decision.kind === 'unsatisfiable') {
      c.header('Content-Range', `bytes */${size}`);
      throw new RangeNotSatisfiableError();
    }
    const { start, end } = decision.kind === 'partial' ? decision : { start: 0, end: size - 1 };
    const status = decision.kind === 'partial' ? 206 : 200;
    // §15.3.7: a 206 carries the same validators and cache directives a 200 would.
    c.header('ETag', etag);
    c.header('Last-Modified', new Date(Number(file.stats.mtimeMs)).toUTCString());
    c.header('Content-Type', contentTypeOfKey(key));
    c.header('Content-Disposition', dispositionOf(key, link));
    c.header('Cache-Control', link ? SIGNED_CACHE_CONTROL : PUBLIC_CACHE_CONTROL);
    c.header('Content-Length', String(end - start + 1));
    if (status === 206) c.header('Content-Range', `bytes ${start}-${end}/${size}`);
    if (c.req.method === 'HEAD' || size === 0) return c.body(null, status);

    const { grants } = options;
    const grant = link?.grant && link.holder && grants ? { grant: link.grant, holder: link.holder, key } : null;
    const track = grant && grants ? grants.track(grant.grant, start, end, key) : null;
    const outgoing = outgoingOf(c);
    let sentEnd = start;
    let checkedAt = options.clock.now().getTime();
    /** A long response (a Background Fetch takes the whole movie in one) is cut once its grant no longer stands. */
    const recheck = () => {
      const now = options.clock.now().getTime();
      if (!grant || !grants || !outgoing || now - checkedAt < RECHECK_EVERY_MS) return;
      checkedAt = now;
      grants.allows(grant).then(
        (allowed) => allowed || outgoing.destroy(),
        // A database hiccup does not cut a download under way; the next request is checked again anyway.
        () => undefined,
      );
    };
    const body = fileBody({
      handle: file.handle,
      start,
      end,
      outgoing,
      // The body is read after the handler returned, outside the request's log context: bind it back.
      onError: AsyncResource.bind((error: unknown) =>
        c.get('logger').error({ err: error, key }, 'reading a stored file failed'),
      ),
      onSent: track
        ? (bytes) => {
            options.traffic?.sent(bytes);
            sentEnd += bytes;
            track.reached(sentEnd);
            recheck();
          }
        : options.traffic?.sent,
      onClosed: track ? AsyncResource.bind(() => track.closed()) : undefined,
    });
    bodyOwnsFile = true;
    return c.body(body, status);
  } finally {
    if (!bodyOwnsFile) await file.handle.close();
  }
}

/**
 * Null for a public thumbnail request; the link's fields for a valid signed one. A thumbnail with a signature is
 * checked like any link, so a tampered link fails the same way everywhere.
 */
function readAccess(c: Context<AppEnv>, key: string, options: FileServerOptions): LinkFields | null {
  const query = queryOf(c);
  if (!hasSignature(query) && isPublicKey(key)) return null;
  const check = checkLink(options.secret, { method: 'GET', key, query, now: options.clock.now() });
  if (!check.ok) throw invalidLink();
  return check.fields;
}

/** Opened once and stat-ed through the handle, so the validators describe exactly the bytes that are sent. */
async function openObject(path: string): Promise<{ handle: FileHandle; stats: BigIntStats } | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  try {
    const stats = await handle.stat({ bigint: true });
    if (stats.isFile()) return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  return null;
}

/**
 * A named download saves under the movie's title (RFC 6266 with an RFC 5987 `filename*`); otherwise movies still
 * download (never render in place: security R24) and thumbnails show inline.
 */
function dispositionOf(key: string, link: LinkFields | null): string {
  if (link?.downloadName) return attachmentDisposition(link.downloadName);
  if (isServerKey(key, 'movies') || isServerKey(key, 'renditions')) {
    return `attachment; filename="${key.slice(key.lastIndexOf('/') + 1)}"`;
  }
  return 'inline';
}

/** PUT to a signed upload link (security R24): type and size bound by the signature, object never overwritten. */
async function receiveObject(c: Context<AppEnv>, options: FileServerOptions): Promise<Response> {
  const key = keyOf(c);
  const finalPath = objectPath(options.dir, key);
  if (!finalPath) throw missingFile();
  const check = checkLink(options.secret, { method: 'PUT', key, query: queryOf(c), now: options.clock.now() });
  if (!check.ok) throw invalidLink();
  if (check.fields.uploadId) return receivePartOf(c, options, key, check.fields);
  const { contentType, maxBytes } = check.fields;
  // A GET link has neither; it cannot be replayed as an upload (its signature would not match anyway).
  if (contentType === null || maxBytes === null) throw invalidLink();
  // The type is part of what was signed, so another type is refused like any other mismatch: 403, as S3 answers
  // a presigned PUT whose signed Content-Type differs (the client then handles both drivers the same way).
  if (c.req.header('Content-Type')?.trim().toLowerCase() !== contentType.toLowerCase()) {
    throw new AppError('forbidden', `This upload link accepts ${contentType} files only.`);
  }
  const declaredLength = c.req.header('Content-Length');
  if (declaredLength !== undefined && Number(declaredLength) > maxBytes) throw tooLarge(maxBytes);
  if ((await statObject(finalPath)) !== null) throw objectExists();

  try {
    const stats = await receiveUpload({ dir: options.dir, key, finalPath, body: requestBodyOf(c), maxBytes });
    options.traffic?.received(Number(stats.size));
    c.header('ETag', etagOf(stats));
    return c.body(null, 200);
  } catch (error) {
    if (error instanceof UploadTooLargeError) throw tooLarge(maxBytes);
    if (error instanceof ObjectExistsError) throw objectExists();
    if (error instanceof UploadInterruptedError) {
      throw new AppError('bad_request', 'The upload was interrupted before it was complete. Please try again.');
    }
    throw error;
  }
}

/** PUT of one part of a multipart upload: a re-sent part replaces the old one; answers with the part's ETag. */
async function receivePartOf(
  c: Context<AppEnv>,
  options: FileServerOptions,
  key: string,
  fields: LinkFields,
): Promise<Response> {
  const { maxBytes, uploadId, partNumber } = fields;
  if (maxBytes === null || !uploadId || !partNumber) throw invalidLink();
  const declaredLength = c.req.header('Content-Length');
  if (declaredLength !== undefined && Number(declaredLength) > maxBytes) throw tooLarge(maxBytes);
  try {
    const part = await receivePart({ dir: options.dir, key, uploadId, partNumber, maxBytes, body: requestBodyOf(c) });
    options.traffic?.received(part.size);
    c.header('ETag', part.etag);
    return c.body(null, 200);
  } catch (error) {
    if (error instanceof UploadTooLargeError) throw tooLarge(maxBytes);
    if (error instanceof UnknownUploadError) {
      throw new AppError('not_found', 'This upload has ended or was cancelled. Start the upload again.');
    }
    if (error instanceof UploadInterruptedError) {
      throw new AppError('bad_request', 'The upload was interrupted before it was complete. Please try again.');
    }
    throw error;
  }
}

const tooLarge = (maxBytes: number) =>
  new AppError('payload_too_large', `This upload link accepts at most ${maxBytes} bytes.`);
const objectExists = () => conflict('A file already exists under this key; stored files are never replaced.');

/**
 * CORS for the configured second origins only (never an echo of any origin). Media elements fetch without an
 * Origin header, so whether a second origin is configured, not the request, decides Cross-Origin-Resource-Policy.
 */
function filesCors(corsOrigins: string[]): MiddlewareHandler<AppEnv> {
  const allowed = new Set(corsOrigins);
  return async (c, next) => {
    const origin = c.req.header('Origin');
    const allowedOrigin = origin !== undefined && allowed.has(origin) ? origin : null;
    if (c.req.method === 'OPTIONS') {
      const requested = c.req.header('Access-Control-Request-Method');
      if (allowedOrigin && requested && CORS_ALLOWED_METHODS.split(', ').includes(requested)) {
        c.header('Access-Control-Allow-Origin', allowedOrigin);
        c.header('Access-Control-Allow-Methods', CORS_ALLOWED_METHODS);
        c.header('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS);
        c.header('Access-Control-Max-Age', CORS_MAX_AGE_SECONDS);
      }
      if (allowed.size > 0) c.header('Vary', 'Origin');
      c.header('Allow', `${CORS_ALLOWED_METHODS}, OPTIONS`);
      return c.body(null, 204);
    }
    await next();
    if (allowed.size === 0) return;
    // The answer depends on Origin, and public thumbnails are cached by shared caches: they must know.
    c.res.headers.append('Vary', 'Origin');
    c.res.headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
    if (allowedOrigin) {
      c.res.headers.set('Access-Control-Allow-Origin', allowedOrigin);
      c.res.headers.set('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS);
    }
  };
}

/** On every /files answer: capability URLs must not leak through Referer (R22), and errors are never cached. */
const filesHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.res.headers.set('Referrer-Policy', 'no-referrer');
  c.res.headers.set('X-Content-Type-Options', 'nosniff');
  if (c.res.status >= 400) c.res.headers.set('Cache-Control', 'no-store');
};

function keyOf(c: Context<AppEnv>): string {
  // Hono hands back decoded parameters, so `%2e%2e%2f` arrives as `../` here and fails isServerKey like `../`.
  const movie = c.req.param('movie');
  if (movie !== undefined) return `posters/${movie}/${c.req.param('file') ?? ''}`;
  const renditionOf = c.req.param('renditionOf');
  if (renditionOf !== undefined) return `renditions/${renditionOf}/${c.req.param('file') ?? ''}`;
  return `${c.req.param('folder') ?? ''}/${c.req.param('file') ?? ''}`;
}

function queryOf(c: Context<AppEnv>): URLSearchParams {
  return new URL(c.req.url).searchParams;
}

/** The Node response when served by @hono/node-server over HTTP/1; null in-process. */
function outgoingOf(c: Context<AppEnv>): ServerResponse | null {
  const env: unknown = c.env;
  if (typeof env === 'object' && env !== null && 'outgoing' in env && env.outgoing instanceof ServerResponse) {
    return env.outgoing;
  }
  return null;
}

/** The Node request stream when there is one (no web-stream detour for a 1 GB upload), else the web body. */
function requestBodyOf(c: Context<AppEnv>): Readable {
  const env: unknown = c.env;
  if (typeof env === 'object' && env !== null && 'incoming' in env && env.incoming instanceof IncomingMessage) {
    return env.incoming;
  }
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as NodeReadableStream<Uint8Array>) : Readable.from([]);
}
