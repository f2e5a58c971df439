import { request } from 'node:http';
import { DownloadUrlResponse } from '@filamu/shared';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { type AddedMovie, addMovie, createPlan, subscribe } from '../../../test/library.ts';
import { listen, type Running } from '../../lib/loopback.testing.ts';
import { VERDICT_TTL_MS } from './link-checks.ts';

/**
 * Delivered bytes over real HTTP (the direct pump, socket write callbacks): a client that read every byte and then
 * hung up has downloaded the movie; one that hung up early has not.
 */

/** Reads `url` until `stopAfter` bytes arrived (or the body ended), then destroys the connection at once. */
function readThenHangUp(url: string, stopAfter: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let received = 0;
    const req = request(url, (res) => {
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received >= stopAfter) {
          req.destroy();
          resolve(received);
        }
      });
      res.on('end', () => resolve(received));
    });
    req.on('error', (error) => (received >= stopAfter ? resolve(received) : reject(error)));
    req.end();
  });
}

/**
 * Reads `url` slowly: `first` bytes, then waits for `between()` with the body paused, then the rest with a pause
 * after every chunk. Resolves with the bytes received and whether the body ended whole.
 */
function readPaused(url: string, first: number, between: () => Promise<void>) {
  return new Promise<{ received: number; whole: boolean }>((resolve) => {
    let received = 0;
    let waited = false;
    const done = (whole: boolean) => resolve({ received, whole });
    const req = request(url, (res) => {
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        res.pause();
        if (!waited && received >= first) {
          waited = true;
          void between().then(() => res.resume());
        } else if (waited) setTimeout(() => res.resume(), 5);
        else res.resume();
      });
      res.on('end', () => done(res.complete));
      res.on('aborted', () => done(false));
      res.on('error', () => done(false));
    });
    req.on('error', () => done(false));
    req.end();
  });
}

describe.each(testDatabases)('bytes delivered over HTTP on %s', (kind) => {
  const SIZE = 24 * 1024 * 1024 + 123;
  let t: TestApp;
  let server: Running;
  let adminToken: string;
  let planId: string;
  let movie: AddedMovie;

  beforeAll(async () => {
    t = await createTestApp(kind);
    server = await listen(t.app as unknown as Hono);
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
    movie = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: SIZE });
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  async function grantedLink() {
    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, planId);
    const res = await t.request('POST', '/api/users/movies/generate-download-url', {
      token,
      body: { movieId: movie.movie.id },
    });
    expect(res.status, res.text).toBe(200);
    return { token, ...DownloadUrlResponse.parse(res.json) };
  }
  const complete = (token: string, id: string) =>
    t.request('PUT', `/api/users/downloads/${id}/complete`, { token, body: { downloadedBytes: SIZE } });

  it('completes a download whose client hung up right after the last byte', async () => {
    const { token, downloadId, downloadUrl } = await grantedLink();
    expect(
      await readThenHangUp(`${server.url}${new URL(downloadUrl).pathname}${new URL(downloadUrl).search}`, SIZE),
    ).toBe(SIZE);
    const done = await complete(token, downloadId);
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ status: 'completed' });
  });

  it('cuts a response under way once its grant ends (a Background Fetch takes the whole movie in one)', async () => {
    const { token, downloadUrl } = await grantedLink();
    const url = `${server.url}${new URL(downloadUrl).pathname}${new URL(downloadUrl).search}`;
    const read = await readPaused(url, 1024 * 1024, async () => {
      expect((await t.request('POST', '/api/auth/logout', { token })).status).toBe(200);
      t.clock.advance(VERDICT_TTL_MS);
    });
    expect(read.whole).toBe(false);
    expect(read.received).toBeLessThan(SIZE);
  });

  it('refuses one whose client hung up early, counting only what was sent', async () => {
    const { token, downloadId, downloadUrl } = await grantedLink();
    const url = `${server.url}${new URL(downloadUrl).pathname}${new URL(downloadUrl).search}`;
    await readThenHangUp(url, 1024 * 1024);
    const refused = await complete(token, downloadId);
    expectErrorEnvelope(refused, 409, 'conflict', /The download is not complete: \d+ of \d+ bytes received\./);
    const counted = Number(/^The download is not complete: (\d+) of/.exec(refused.json.error.message as string)![1]);
    expect(counted).toBeGreaterThanOrEqual(1024 * 1024);
    expect(counted).toBeLessThan(SIZE);
  });
});
