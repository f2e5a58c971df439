import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { negotiateCoding, varyOnAcceptEncoding, type ContentCoding } from './content-coding.ts';
import type { AppEnv } from './env.ts';

/** Below this, the saving is a few hundred bytes at most, less than the headers of the answer (decision 0073). */
export const COMPRESS_JSON_MIN_BYTES = 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

// Off the event loop (the libuv pool); brotli 4 is ~gzip's CPU for a smaller answer, 11 would cost 50× more.
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const COMPRESS: Record<ContentCoding, (body: Uint8Array) => Promise<Buffer>> = {
  br: (body) =>
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  gzip: (body) => gzipAsync(body, { level: 6 }),
};

/**
 * Compresses JSON answers of at least `minBytes` with br or gzip, as the client accepts (content-coding.ts), and
 * marks every JSON answer `Vary: Accept-Encoding`. Only JSON: never video, files or ranges (/files is not under
 * /api, and its answers are not JSON anyway), nor 204/206/304, HEAD, or an answer already encoded or marked
 * `no-transform`. A strong ETag becomes weak, as the bytes now depend on the coding (RFC 9110 §8.8.3).
 */
export function compressJson({ minBytes = COMPRESS_JSON_MIN_BYTES } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (
      c.req.method === 'HEAD' ||
      !res.body ||
      [204, 206, 304].includes(res.status) ||
      !JSON_TYPE.test(res.headers.get('Content-Type') ?? '') ||
      res.headers.has('Content-Encoding') ||
      res.headers.has('Content-Range') ||
      NO_TRANSFORM.test(res.headers.get('Cache-Control') ?? '')
    ) {
      return;
    }
    varyOnAcceptEncoding(res.headers);
    const coding = negotiateCoding(c.req.header('Accept-Encoding'));
    if (coding === 'identity') return;

    const body = new Uint8Array(await res.arrayBuffer());
    const compressed = body.length >= minBytes ? await COMPRESS[coding](body) : null;
    // Hono copies the old answer's headers onto the new one, so the body's own headers are set after.
    c.res = new Response(compressed ?? body, res);
    if (!compressed) return;
    c.res.headers.set('Content-Encoding', coding);
    c.res.headers.set('Content-Length', String(compressed.length));
    const etag = c.res.headers.get('ETag');
    if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`);
  };
}
