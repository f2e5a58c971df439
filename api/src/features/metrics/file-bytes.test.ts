import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type RunningLocalFiles, startLocalFiles } from '../storage/local.testing.ts';
import { newObjectKey } from '../storage/storage.ts';

/** Over real loopback HTTP, through the direct-to-socket pump: the bytes counted are the bytes the socket took. */
describe('file traffic counted by the local /files server', () => {
  const SIZE = 24 * 1024 * 1024;
  let files: RunningLocalFiles;
  let movieUrl: string;
  const counted = { sent: 0, received: 0 };

  beforeAll(async () => {
    files = await startLocalFiles({
      traffic: { sent: (bytes) => (counted.sent += bytes), received: (bytes) => (counted.received += bytes) },
    });
    const key = newObjectKey('movies', 'video/mp4')!;
    await files.storage.put(key, randomBytes(SIZE), 'video/mp4');
    movieUrl = files.absolute(await files.storage.presignGet(key, { expiresInSeconds: 3600 }));
  });
  afterAll(() => files?.close());

  it('counts a whole body and a range exactly', async () => {
    counted.sent = 0;
    const whole = await fetch(movieUrl);
    expect((await whole.arrayBuffer()).byteLength).toBe(SIZE);
    const range = await fetch(movieUrl, { headers: { Range: 'bytes=100-1099' } });
    expect((await range.arrayBuffer()).byteLength).toBe(1000);
    await eventually(() => counted.sent === SIZE + 1000);
  });

  it('counts what was sent before the client cut the connection, not the whole range', async () => {
    counted.sent = 0;
    const abort = new AbortController();
    const response = await fetch(movieUrl, { signal: abort.signal });
    const reader = response.body!.getReader();
    let taken = 0;
    while (taken < 2 * 1024 * 1024) {
      const { done, value } = await reader.read();
      if (done) break;
      taken += value.length;
    }
    abort.abort();
    await reader.cancel().catch(() => {});
    // Settled: nothing more is written once the server saw the close.
    let last = -1;
    await eventually(async () => {
      const settled = counted.sent === last;
      last = counted.sent;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return settled;
    });
    expect(counted.sent).toBeGreaterThanOrEqual(taken);
    expect(counted.sent).toBeLessThan(SIZE);
  });

  it('counts the bytes of a stored upload', async () => {
    counted.received = 0;
    const key = newObjectKey('thumbnails', 'image/png')!;
    const upload = await files.storage.presignPut(key, {
      contentType: 'image/png',
      maxBytes: 10_000,
      expiresInSeconds: 900,
    });
    const body = randomBytes(7_777);
    const res = await fetch(files.absolute(upload.url), { method: 'PUT', headers: upload.headers, body });
    expect(res.status).toBe(200);
    expect(counted.received).toBe(7_777);
  });
});
