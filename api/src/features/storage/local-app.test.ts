import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectErrorEnvelope, type TestApp } from '../../../test/harness.ts';
import { listen, type Running } from '../../lib/loopback.testing.ts';
import { newObjectKey } from './storage.ts';

/** The local driver as the whole app wires it: deps.storage, /files mounted behind the global middleware. */

const PWA_ORIGIN = 'https://pwa.filamu.test';
const SIZE = 2 * 1024 * 1024 + 777;

let t: TestApp;
let server: Running;
let fixture: Buffer;
let key: string;

beforeAll(async () => {
  t = await createTestApp('pglite', { env: { CORS_ORIGINS: PWA_ORIGIN } });
  server = await listen(t.app as unknown as Hono);
  fixture = randomBytes(SIZE);
  key = newObjectKey('movies', 'video/mp4')!;
  await t.deps.storage.put(key, fixture, 'video/mp4');
});

afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe('/files in the whole app', () => {
  it('uses the local driver and mounts its file server', () => {
    expect(t.deps.storage.driver).toBe('local');
    expect(t.deps.fileServer).not.toBeNull();
  });

  it('serves ranges in-process (app.request, no Node response to write to) with exact bytes', async () => {
    const link = await t.deps.storage.presignGet(key, { expiresInSeconds: 600 });
    const part = await t.app.request(link, { headers: { Range: 'bytes=1000-1099999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1099999/${SIZE}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(fixture.subarray(1000, 1100000))).toBe(true);
    const whole = await t.app.request(link);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(fixture)).toBe(true);
  });

  it('answers refusals with the API envelope and its request id', async () => {
    const link = await t.deps.storage.presignGet(key, { expiresInSeconds: 600 });
    expectErrorEnvelope(await t.request('GET', `${link}x`), 403, 'forbidden', 'This link is invalid or has expired.');
    expectErrorEnvelope(await t.request('GET', `/files/${key}`), 403, 'forbidden');
    expectErrorEnvelope(await t.request('GET', '/files/movies/nope.mp4'), 404, 'not_found');
    const unsatisfiable = await t.request('GET', link, { headers: { Range: `bytes=${SIZE}-` } });
    expectErrorEnvelope(unsatisfiable, 416, 'bad_request');
    expect(unsatisfiable.headers.get('content-range')).toBe(`bytes */${SIZE}`);
  });

  it('streams over real HTTP through every global middleware with exact bytes and the file headers', async () => {
    const link = await t.deps.storage.presignGet(key, { expiresInSeconds: 600 });
    const res = await fetch(`${server.url}${link}`, { headers: { Range: 'bytes=5-', Origin: PWA_ORIGIN } });
    expect(res.status).toBe(206);
    expect(Buffer.from(await res.arrayBuffer()).equals(fixture.subarray(5))).toBe(true);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, no-store, no-transform');
    expect(res.headers.get('access-control-allow-origin')).toBe(PWA_ORIGIN);
    // The file server sets these; the global secureHeaders must keep them (`overwrite: false` in http/middleware.ts).
    const keptByGlobalMiddleware = 'the global secureHeaders replaced a /files header: it needs overwrite: false';
    expect(res.headers.get('referrer-policy'), keptByGlobalMiddleware).toBe('no-referrer');
    expect(res.headers.get('cross-origin-resource-policy'), keptByGlobalMiddleware).toBe('cross-origin');
  });

  it('takes an upload through the whole app (no 1 MiB API body limit on /files)', async () => {
    const uploadKey = newObjectKey('movies', 'video/mp4')!;
    const body = randomBytes(3 * 1024 * 1024);
    const upload = await t.deps.storage.presignPut(uploadKey, {
      contentType: 'video/mp4',
      maxBytes: body.length,
      expiresInSeconds: 900,
    });
    const res = await fetch(`${server.url}${upload.url}`, { method: 'PUT', headers: upload.headers, body });
    expect(res.status).toBe(200);
    expect(Buffer.from(await t.deps.storage.readStart(uploadKey, body.length)).equals(body)).toBe(true);
  });

  it('takes an upload in-process too (web request body), and refuses one over the maximum', async () => {
    const uploadKey = newObjectKey('thumbnails', 'image/png')!;
    const body = randomBytes(5000);
    const upload = await t.deps.storage.presignPut(uploadKey, {
      contentType: 'image/png',
      maxBytes: 4000,
      expiresInSeconds: 900,
    });
    const tooLarge = await t.app.request(upload.url, { method: 'PUT', headers: upload.headers, body });
    expect(tooLarge.status).toBe(413);
    expect(await t.deps.storage.head(uploadKey)).toBeNull();
    const fits = await t.app.request(upload.url, {
      method: 'PUT',
      headers: upload.headers,
      body: body.subarray(0, 4000),
    });
    expect(fits.status).toBe(200);
    expect(Buffer.from(await t.deps.storage.readStart(uploadKey, 5000)).equals(body.subarray(0, 4000))).toBe(true);
  });
});
