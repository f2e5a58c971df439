import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { pendingUploads } from './local-objects.ts';
import { eventually, type RunningLocalFiles, startLocalFiles } from './local.testing.ts';
import { createLocalStorage } from './local.ts';
import { newObjectKey } from './storage.ts';

/** Signed PUT uploads over loopback (security R24, C21): bound type and size, atomic, never half an object. */

let files: RunningLocalFiles;

beforeAll(async () => {
  files = await startLocalFiles({ corsOrigins: ['https://admin.filamu.test'] });
});

afterAll(async () => {
  await files?.close();
});

async function uploadLink(options: { maxBytes: number; contentType?: string; expiresInSeconds?: number }) {
  const contentType = options.contentType ?? 'video/mp4';
  const key = newObjectKey('movies', contentType)!;
  const upload = await files.storage.presignPut(key, {
    contentType,
    maxBytes: options.maxBytes,
    expiresInSeconds: options.expiresInSeconds ?? 900,
  });
  return { key, url: files.absolute(upload.url), headers: upload.headers };
}

async function put(url: string, body: Uint8Array | string, headers: Record<string, string>) {
  const response = await fetch(url, { method: 'PUT', headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

/** No object under the key and no temp file left behind. */
async function expectNothingStored(key: string) {
  await eventually(async () => (await pendingUploads(files.dir)).length === 0);
  expect(existsSync(join(files.dir, key))).toBe(false);
  expect(await files.storage.head(key)).toBeNull();
}

/** A chunked PUT (no Content-Length) with node:http; resolves with the status as soon as the server answers. */
function chunkedPut(url: string, contentType: string, chunks: Buffer[], end: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'PUT', headers: { 'Content-Type': contentType } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    if (end) req.end();
  });
}

describe('PUT to a signed upload link', () => {
  it('stores exactly the bytes sent and answers 200 with the ETag head() reports', async () => {
    const body = randomBytes(2 * 1024 * 1024 + 3);
    const link = await uploadLink({ maxBytes: body.length });
    const res = await put(link.url, body, link.headers);
    expect(res.status).toBe(200);
    expect(readFileSync(join(files.dir, link.key)).equals(body)).toBe(true);
    const info = await files.storage.head(link.key);
    expect(info).toMatchObject({ size: body.length, contentType: 'video/mp4' });
    expect(res.headers.get('etag')).toBe(info!.etag);
    expect(await pendingUploads(files.dir)).toEqual([]);
  });

  it('accepts a body smaller than the signed maximum, and a chunked body within it', async () => {
    const small = await uploadLink({ maxBytes: 1000 });
    expect((await put(small.url, randomBytes(10), small.headers)).status).toBe(200);
    const chunked = await uploadLink({ maxBytes: 1000 });
    const parts = [randomBytes(400), randomBytes(600)];
    expect(await chunkedPut(chunked.url, 'video/mp4', parts, true)).toBe(200);
    expect(readFileSync(join(files.dir, chunked.key)).equals(Buffer.concat(parts))).toBe(true);
  });

  it('refuses another Content-Type than the signed one with 403 (it is part of the signature, as on S3)', async () => {
    const link = await uploadLink({ maxBytes: 100 });
    for (const type of ['video/webm', 'text/html', 'video/mp4; charset=utf-8']) {
      const res = await put(link.url, randomBytes(10), { 'Content-Type': type });
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('forbidden');
    }
    await expectNothingStored(link.key);
  });

  it('refuses a declared Content-Length over the maximum with 413 before reading the body', async () => {
    const link = await uploadLink({ maxBytes: 1000 });
    const res = await put(link.url, randomBytes(1001), link.headers);
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe('payload_too_large');
    await expectNothingStored(link.key);
  });

  it('cuts off a chunked body with 413 as soon as it passes the maximum, without waiting for its end', async () => {
    const link = await uploadLink({ maxBytes: 64 * 1024 });
    // The request is never ended: the answer can only come from the server counting bytes.
    const status = await chunkedPut(link.url, 'video/mp4', [randomBytes(40 * 1024), randomBytes(40 * 1024)], false);
    expect(status).toBe(413);
    await expectNothingStored(link.key);
  });

  it('refuses a tampered, expired, or download link with 403', async () => {
    const link = await uploadLink({ maxBytes: 10 });
    const bigger = new URL(link.url);
    bigger.searchParams.set('max', '1000000');
    expect((await put(bigger.toString(), 'x', link.headers)).status).toBe(403);
    const retyped = new URL(link.url);
    retyped.searchParams.set('type', 'text/html');
    expect((await put(retyped.toString(), 'x', { 'Content-Type': 'text/html' })).status).toBe(403);
    const download = files.absolute(await files.storage.presignGet(link.key, { expiresInSeconds: 60 }));
    expect((await put(download, 'x', link.headers)).status).toBe(403);

    const expiring = await uploadLink({ maxBytes: 10, expiresInSeconds: 900 });
    files.clock.advance(900_000 + 1000);
    const expired = await put(expiring.url, 'x', expiring.headers);
    expect(expired.status).toBe(403);
    expect(expired.json.error.message).toBe('This link is invalid or has expired.');
    await expectNothingStored(link.key);
    await expectNothingStored(expiring.key);
  });

  it('never replaces a stored object: a second PUT to the same key is 409 and the first bytes stay', async () => {
    const first = randomBytes(50);
    const link = await uploadLink({ maxBytes: 100 });
    expect((await put(link.url, first, link.headers)).status).toBe(200);
    const again = await put(link.url, randomBytes(60), link.headers);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('conflict');
    expect(readFileSync(join(files.dir, link.key)).equals(first)).toBe(true);
    expect(await pendingUploads(files.dir)).toEqual([]);
  });

  it('leaves nothing behind when the connection dies mid-upload, and stores a complete retry exactly', async () => {
    const body = randomBytes(1024 * 1024);
    const link = await uploadLink({ maxBytes: body.length });
    const { hostname, port, pathname, search } = new URL(link.url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `PUT ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: video/mp4\r\n` +
        `Content-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.subarray(0, body.length / 2));
    // The server has started writing the upload to a temp file…
    await eventually(async () => (await pendingUploads(files.dir)).length === 1);
    // …when the phone loses its signal.
    socket.destroy();
    await expectNothingStored(link.key);

    const retry = await put(link.url, body, link.headers);
    expect(retry.status).toBe(200);
    expect(readFileSync(join(files.dir, link.key)).equals(body)).toBe(true);
  });

  it('lets the configured origin preflight an upload with its Content-Type', async () => {
    const link = await uploadLink({ maxBytes: 10 });
    const res = await fetch(link.url, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://admin.filamu.test',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://admin.filamu.test');
    expect(res.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(res.headers.get('access-control-allow-headers')).toContain('Content-Type');
  });
});

describe('the local ObjectStorage', () => {
  it('puts, heads, reads the start of and deletes objects', async () => {
    const key = newObjectKey('thumbnails', 'image/webp')!;
    const bytes = randomBytes(300);
    await files.storage.put(key, bytes, 'image/webp');
    const info = await files.storage.head(key);
    expect(info).toMatchObject({ size: 300, contentType: 'image/webp' });
    expect(info!.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+-[0-9a-f]+"$/);
    expect(Buffer.from(await files.storage.readStart(key, 16)).equals(bytes.subarray(0, 16))).toBe(true);
    expect((await files.storage.readStart(key, 1000)).length).toBe(300);
    await expect(files.storage.put(key, bytes, 'image/webp')).rejects.toBeInstanceOf(AppError);
    await files.storage.delete(key);
    expect(await files.storage.head(key)).toBeNull();
    await files.storage.delete(key);
    expect(await pendingUploads(files.dir)).toEqual([]);
  });

  it('refuses keys it did not generate, everywhere', async () => {
    for (const key of ['../etc/passwd', 'movies/../../x.mp4', 'movies/x.mp4', '.uploads/a.part', '']) {
      expect(await files.storage.head(key)).toBeNull();
      await expect(files.storage.presignGet(key, { expiresInSeconds: 60 })).rejects.toThrow(RangeError);
      await expect(
        files.storage.presignPut(key, { contentType: 'video/mp4', maxBytes: 1, expiresInSeconds: 60 }),
      ).rejects.toThrow(RangeError);
      await expect(files.storage.put(key, new Uint8Array(1), 'video/mp4')).rejects.toThrow(RangeError);
      await expect(files.storage.readStart(key, 1)).rejects.toThrow(RangeError);
      await expect(files.storage.delete(key)).rejects.toThrow(RangeError);
      expect(files.storage.publicUrl(key)).toBeNull();
    }
  });

  it('links thumbnails to the CDN when there is one, movies never', () => {
    const { storage } = createLocalStorage({
      dir: files.dir,
      secret: 'x'.repeat(43),
      clock: files.clock,
      cdnBaseUrl: 'https://cdn.filamu.test/',
      corsOrigins: [],
    });
    const thumbnail = newObjectKey('thumbnails', 'image/jpeg')!;
    expect(storage.publicUrl(thumbnail)).toBe(`https://cdn.filamu.test/${thumbnail}`);
    expect(storage.publicUrl(newObjectKey('movies', 'video/mp4')!)).toBeNull();
    expect(storage.driver).toBe('local');
  });
});
