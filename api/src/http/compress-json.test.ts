import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { COMPRESS_JSON_MIN_BYTES, compressJson } from './compress-json.ts';
import type { AppEnv } from './env.ts';

const big = { movies: Array.from({ length: 40 }, (_, n) => ({ id: n, title: `Movie number ${n}`, vj: 'VJ Junior' })) };
const bigText = JSON.stringify(big);
const BROWSER = 'gzip, deflate, br, zstd';

const app = new Hono<AppEnv>();
app.use(compressJson());
app.get('/big', (c) => c.json(big));
app.get('/small', (c) => c.json({ status: 'ok' }));
app.get('/etag', (c) => {
  c.header('ETag', '"v1"');
  return c.json(big);
});
app.get('/error', (c) => c.json({ error: { code: 'bad_request', message: 'x'.repeat(2000) } }, 400));
app.get('/no-transform', (c) => {
  c.header('Cache-Control', 'private, no-transform');
  return c.json(big);
});
app.get('/encoded', (c) =>
  c.body(new Uint8Array([1, 2, 3]), 200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }),
);
app.get('/partial', (c) =>
  c.body(bigText, 206, { 'Content-Type': 'application/json', 'Content-Range': 'bytes 0-9/99' }),
);
app.get('/events', (c) => c.body('data: x\n\n'.repeat(500), 200, { 'Content-Type': 'text/event-stream' }));
app.get('/video', (c) => c.body(new Uint8Array(4096), 200, { 'Content-Type': 'video/mp4' }));
app.get('/problem', (c) => c.body(bigText, 200, { 'Content-Type': 'application/problem+json' }));
app.get('/empty', (c) => c.body(null, 204));
app.get('/not-modified', (c) => c.body(null, 304, { 'Content-Type': 'application/json' }));

const get = (path: string, acceptEncoding?: string, method = 'GET') =>
  app.request(path, { method, headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } });

describe('compressJson', () => {
  it('sends a JSON answer above the threshold as br to a browser, with its exact bytes inside', async () => {
    expect(bigText.length).toBeGreaterThan(COMPRESS_JSON_MIN_BYTES);
    const res = await get('/big', BROWSER);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-length')).toBe(String(body.length));
    expect(body.length).toBeLessThan(bigText.length / 3);
    expect(brotliDecompressSync(body).toString()).toBe(bigText);
  });

  it('sends gzip to a client without br, and identity (still varying) to one that takes neither', async () => {
    const gzipped = await get('/big', 'gzip');
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toBe(bigText);
    for (const acceptEncoding of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const plain = await get('/big', acceptEncoding);
      expect(plain.headers.get('content-encoding'), acceptEncoding).toBeNull();
      expect(plain.headers.get('vary'), acceptEncoding).toBe('Accept-Encoding');
      expect(await plain.text()).toBe(bigText);
    }
  });

  it('leaves an answer under the threshold as it is, marked as varying', async () => {
    const res = await get('/small', BROWSER);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('compresses error envelopes and +json types too', async () => {
    const error = await get('/error', BROWSER);
    expect(error.status).toBe(400);
    expect(error.headers.get('content-encoding')).toBe('br');
    const problem = await get('/problem', 'gzip');
    expect(problem.headers.get('content-encoding')).toBe('gzip');
  });

  it('weakens a strong ETag when the bytes depend on the coding', async () => {
    expect((await get('/etag', BROWSER)).headers.get('etag')).toBe('W/"v1"');
    expect((await get('/etag')).headers.get('etag')).toBe('"v1"');
  });

  it('never touches HEAD, no-transform, encoded, partial, empty or 304 answers, nor anything but JSON', async () => {
    const head = await get('/big', BROWSER, 'HEAD');
    expect(head.headers.get('content-encoding')).toBeNull();
    for (const path of ['/no-transform', '/encoded', '/partial', '/events', '/video', '/empty', '/not-modified']) {
      const res = await get(path, BROWSER);
      const expected = path === '/encoded' ? 'gzip' : null;
      expect(res.headers.get('content-encoding'), path).toBe(expected);
      expect(res.headers.get('vary'), path).toBeNull();
    }
    expect(await (await get('/partial', BROWSER)).text()).toBe(bigText);
  });
});
