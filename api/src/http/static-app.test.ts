import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { listen, type Running } from '../lib/loopback.testing.ts';
import { newObjectKey } from '../features/storage/storage.ts';
import type { AppEnv } from './env.ts';
import { mountPwa } from './static-app.ts';

const APP_SHELL_HTML = `<!doctype html><title>Filamu</title><div id="root"></div>${'<!-- shell -->'.repeat(100)}`;
const LANDING_HTML = `<!doctype html><title>Filamu</title><div id="root"><h1>Landing</h1></div>${'<!-- page -->'.repeat(100)}`;
const TERMS_HTML = `<!doctype html><title>Terms</title><div id="root"><h1>Terms</h1></div>${'<!-- page -->'.repeat(100)}`;
const APP_JS = `console.log("app");\n${'export const movie = { title: "Kampala Nights", vj: "VJ Junior" };\n'.repeat(100)}`;
const GZIP_ONLY_CSS = `.card { color: #7c2d12 }\n`.repeat(80);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const BROWSER = 'gzip, deflate, br, zstd';

/** A dist/ as `pnpm build` leaves it: originals and, for the compressible ones, their .br and .gz copies. */
function builtPwa(): string {
  const dir = mkdtempSync(join(tmpdir(), 'filamu-pwa-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, '.vite'));
  const write = (path: string, content: string | Buffer, codings: ('br' | 'gz')[] = []) => {
    writeFileSync(join(dir, path), content);
    if (codings.includes('br')) writeFileSync(join(dir, `${path}.br`), brotliCompressSync(content));
    if (codings.includes('gz')) writeFileSync(join(dir, `${path}.gz`), gzipSync(content));
  };
  write('index.html', LANDING_HTML, ['br', 'gz']);
  write('terms.html', TERMS_HTML, ['br', 'gz']);
  write('app.html', APP_SHELL_HTML, ['br', 'gz']);
  write('assets/index-abc123.js', APP_JS, ['br', 'gz']);
  write('assets/index-abc123.css', GZIP_ONLY_CSS, ['gz']);
  write('sw.js', 'self.addEventListener("install", () => {})');
  write('icon-192.png', PNG);
  write('.vite/manifest.json', '{}');
  return dir;
}

const decoded = async (res: Response): Promise<string> => {
  const body = Buffer.from(await res.arrayBuffer());
  const coding = res.headers.get('content-encoding');
  if (coding === 'br') return brotliDecompressSync(body).toString();
  if (coding === 'gzip') return gunzipSync(body).toString();
  return body.toString();
};

describe('serving the built PWA', () => {
  const app = new Hono<AppEnv>();
  mountPwa(app, builtPwa());
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    app.request(path, { method, headers });

  it('serves the prerendered pages, and the app shell for client-side routes (history fallback), revalidated and compressed', async () => {
    const expected: Record<string, string> = {
      '/': LANDING_HTML,
      '/terms': TERMS_HTML,
      '/terms/': TERMS_HTML,
      '/dashboard': APP_SHELL_HTML,
      '/movies/123': APP_SHELL_HTML,
      '/no/such/page': APP_SHELL_HTML,
    };
    for (const [path, body] of Object.entries(expected)) {
      const res = await get(path, { 'Accept-Encoding': BROWSER });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await decoded(res), path).toBe(body);
    }
  });

  it('picks br, else gzip, else identity, by Accept-Encoding', async () => {
    const cases: [string | undefined, string | null][] = [
      [BROWSER, 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.9', 'br'],
      [undefined, null],
      ['deflate', null],
      ['identity', null],
    ];
    for (const [acceptEncoding, expected] of cases) {
      const res = await get('/assets/index-abc123.js', acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {});
      expect(res.headers.get('content-encoding'), acceptEncoding).toBe(expected);
      expect(res.headers.get('vary'), acceptEncoding).toBe('Accept-Encoding');
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      const body = await decoded(res.clone());
      expect(body, acceptEncoding).toBe(APP_JS);
      expect(res.headers.get('content-length')).toBe(String((await res.arrayBuffer()).byteLength));
    }
  });

  it('uses the copies that exist: gzip when the build wrote no br', async () => {
    const res = await get('/assets/index-abc123.css', { 'Accept-Encoding': BROWSER });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await decoded(res)).toBe(GZIP_ONLY_CSS);
  });

  it('sends files without copies (images, small files) as they are, not varying', async () => {
    for (const path of ['/icon-192.png', '/sw.js']) {
      const res = await get(path, { 'Accept-Encoding': BROWSER });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-encoding'), path).toBeNull();
      expect(res.headers.get('vary'), path).toBeNull();
    }
    const png = await get('/icon-192.png', { 'Accept-Encoding': BROWSER });
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await png.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('caches hashed assets for a year and keeps everything else revalidated', async () => {
    const asset = await get('/assets/index-abc123.js', { 'Accept-Encoding': BROWSER });
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const sw = await get('/sw.js');
    expect(sw.headers.get('cache-control')).toBe('no-cache');
  });

  it('gives each coding its own ETag and answers a matching If-None-Match with 304', async () => {
    const tags = new Set<string>();
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const res = await get('/index.html', { 'Accept-Encoding': acceptEncoding });
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      tags.add(etag);
      const again = await get('/index.html', { 'Accept-Encoding': acceptEncoding, 'If-None-Match': `W/${etag}` });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('vary')).toBe('Accept-Encoding');
      expect(again.headers.get('cache-control')).toBe('no-cache');
      expect(await again.text()).toBe('');
    }
    expect(tags.size).toBe(3);
    const other = await get('/index.html', { 'Accept-Encoding': 'br', 'If-None-Match': '"something-else"' });
    expect(other.status).toBe(200);
  });

  it('answers If-Modified-Since with 304 when the file is no newer', async () => {
    const first = await get('/sw.js');
    const lastModified = first.headers.get('last-modified')!;
    expect(new Date(lastModified).getTime()).not.toBeNaN();
    expect((await get('/sw.js', { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await get('/sw.js', { 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get200 = await get('/assets/index-abc123.js', { 'Accept-Encoding': 'br' });
    const head = await get('/assets/index-abc123.js', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    for (const name of ['content-encoding', 'content-length', 'content-type', 'etag', 'vary', 'cache-control']) {
      expect(head.headers.get(name), name).toBe(get200.headers.get(name));
    }
    expect(await head.text()).toBe('');
  });

  it('answers a missing file, a compressed copy asked for by name and the build folder with 404', async () => {
    for (const path of ['/assets/missing.js', '/assets/index-abc123.js.br', '/.vite/manifest.json', '/%E0%A4%A']) {
      const res = await get(path, { 'Accept-Encoding': BROWSER });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('cache-control') ?? '', path).not.toContain('immutable');
    }
  });
});

describe('the built PWA and the API in the whole app', () => {
  let t: TestApp;
  let server: Running;

  beforeAll(async () => {
    t = await createTestApp('pglite', { pwaDistDir: builtPwa() });
    server = await listen(t.app as unknown as Hono);
  });

  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('serves a hashed asset as br, gzip or identity with its headers and exact bytes', async () => {
    for (const [acceptEncoding, coding] of [
      [BROWSER, 'br'],
      ['gzip', 'gzip'],
      ['', null],
    ] as const) {
      const res = await t.app.request('/assets/index-abc123.js', { headers: { 'Accept-Encoding': acceptEncoding } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(coding);
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await decoded(res)).toBe(APP_JS);
    }
  });

  it('sends the compressed bytes over real HTTP with their length, and HEAD says the same length', async () => {
    const raw = (method: string) =>
      new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const req = httpRequest(`${server.url}/assets/index-abc123.js`, {
          method,
          headers: { 'Accept-Encoding': 'br' },
        });
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    const got = await raw('GET');
    expect(got.headers['content-encoding']).toBe('br');
    expect(got.headers['content-length']).toBe(String(got.body.length));
    expect(brotliDecompressSync(got.body).toString()).toBe(APP_JS);
    const head = await raw('HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(got.body.length));
    expect(head.body.length).toBe(0);
  });

  it('compresses a JSON answer above 1 KB, and not one below', async () => {
    const openapi = await t.app.request('/api/openapi.json', { headers: { 'Accept-Encoding': BROWSER } });
    expect(openapi.status).toBe(200);
    expect(openapi.headers.get('content-encoding')).toBe('br');
    expect(openapi.headers.get('vary')).toContain('Accept-Encoding');
    expect(openapi.headers.get('cache-control')).toBe('no-store');
    const document = JSON.parse(await decoded(openapi)) as { openapi: string };
    expect(document.openapi).toMatch(/^3\./);

    const health = await t.app.request('/api/health', { headers: { 'Accept-Encoding': BROWSER } });
    expect(health.headers.get('content-encoding')).toBeNull();
    expect(health.headers.get('vary')).toContain('Accept-Encoding');
    expect(await health.json()).toEqual({ status: 'ok', db: 'ok' });
  });

  it('never compresses a /files answer, ranged or whole', async () => {
    const key = newObjectKey('movies', 'video/mp4')!;
    const text = Buffer.from('{"looks":"like json"} '.repeat(400));
    await t.deps.storage.put(key, text, 'video/mp4');
    const link = await t.deps.storage.presignGet(key, { expiresInSeconds: 600 });
    for (const range of ['bytes=0-2047', null]) {
      const headers: Record<string, string> = { 'Accept-Encoding': BROWSER, ...(range ? { Range: range } : {}) };
      const res = await t.app.request(link, { headers });
      expect(res.status).toBe(range ? 206 : 200);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.headers.get('vary') ?? '').not.toMatch(/accept-encoding/i);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.equals(range ? text.subarray(0, 2048) : text)).toBe(true);
    }
  });
});
