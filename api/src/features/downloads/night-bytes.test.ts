import { request } from 'node:http';
import { DownloadHistory, DownloadUrlResponse, PlatformAnalytics } from '@filamu/shared';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  TestClock,
  createTestApp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { type AddedMovie, addMovie, createPlan, fetchLink, subscribe } from '../../../test/library.ts';
import { listen, type Running } from '../../lib/loopback.testing.ts';

/**
 * Night bytes (issue 21/22 §5, decision 0255): of the bytes `/files` serves a download, those sent while a night window
 * was open by the server's clock — what the profile says was fetched at night prices and the analytics sum.
 */

/** An instant given as Kampala wall time (UTC+3), as an ISO string. */
const kampala = (local: string) => new Date(`${local}:00+03:00`).toISOString();
const MINUTE = 60_000;
const MiB = 1024 * 1024;

/**
 * Reads `url` whole, but stops after `first` bytes with the body paused until `between()` is done (the server keeps
 * sending into the socket's buffers meanwhile, then waits). Resolves with the bytes received.
 */
function readWithPause(url: string, first: number, between: () => Promise<void>) {
  return new Promise<number>((resolve, reject) => {
    let received = 0;
    let waited = false;
    const req = request(url, (res) => {
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (!waited && received >= first) {
          waited = true;
          res.pause();
          void between().then(() => res.resume());
        }
      });
      res.on('end', () => resolve(received));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(testDatabases)('night bytes on %s', (kind) => {
  const SIZE = 12 * MiB;
  let t: TestApp;
  let server: Running;
  let adminToken: string;
  let planId: string;
  let movie: AddedMovie;

  beforeAll(async () => {
    // 23:00 in Kampala: the default window opens at midnight.
    t = await createTestApp(kind, {
      clock: new TestClock(kampala('2026-11-29T23:00')),
      env: { ADMIN_SESSION_TTL_HOURS: '72' },
    });
    server = await listen(t.app as unknown as Hono);
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
    movie = await addMovie(t, adminToken, { planIds: [planId], size: SIZE });
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  /** A fresh link (a link lasts an hour; the clock moves by hours here). */
  async function link(token: string) {
    const res = await t.request('POST', '/api/users/movies/generate-download-url', {
      token,
      body: { movieId: movie.movie.id },
    });
    expect(res.status, res.text).toBe(200);
    return DownloadUrlResponse.parse(res.json);
  }
  async function grantedLink() {
    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, planId);
    return { token, ...(await link(token)) };
  }
  async function historyEntry(token: string) {
    const res = await t.request('GET', '/api/users/me/downloads', { token });
    expect(res.status, res.text).toBe(200);
    const [entry] = DownloadHistory.parse(res.json).downloads;
    return { fetchedBytes: entry!.fetchedBytes, nightBytes: entry!.nightBytes };
  }
  const settle = (downloadId: string) => t.deps.deliveries.settled(downloadId);

  it('counts a fetch inside the window as night bytes, and one outside it not', async () => {
    const { token, downloadId, downloadUrl } = await grantedLink();
    // 23:00: by day.
    expect((await fetchLink(t, downloadUrl, 'bytes=0-999999')).status).toBe(206);
    await settle(downloadId);
    expect(await historyEntry(token)).toEqual({ fetchedBytes: 1_000_000, nightBytes: 0 });
    // 01:00: inside the window.
    t.clock.advance(120 * MINUTE);
    expect((await fetchLink(t, (await link(token)).downloadUrl, 'bytes=1000000-2999999')).status).toBe(206);
    await settle(downloadId);
    expect(await historyEntry(token)).toEqual({ fetchedBytes: 3_000_000, nightBytes: 2_000_000 });
    // 06:00: closed again.
    t.clock.advance(300 * MINUTE);
    expect((await fetchLink(t, (await link(token)).downloadUrl, 'bytes=3000000-3499999')).status).toBe(206);
    await settle(downloadId);
    expect(await historyEntry(token)).toEqual({ fetchedBytes: 3_500_000, nightBytes: 2_000_000 });
  });

  it('counts only the bytes sent after the window opened of a download running when it opens', async () => {
    // 23:58 the next evening.
    t.clock.advance(17 * 60 * MINUTE + 58 * MINUTE);
    const { token, downloadId, downloadUrl } = await grantedLink();
    const url = `${server.url}${new URL(downloadUrl).pathname}${new URL(downloadUrl).search}`;
    // The first MiB arrives before midnight; the reader then waits while the clock passes 00:00 (to 00:48), and the
    // rest comes in the window. Split by time alone, 48 of the 50 minutes would make 96% of it night bytes.
    const received = await readWithPause(url, MiB, async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      t.clock.advance(50 * MINUTE);
    });
    expect(received).toBe(SIZE);
    await settle(downloadId);
    const { fetchedBytes, nightBytes } = await historyEntry(token);
    expect(fetchedBytes).toBe(SIZE);
    expect(nightBytes).toBeGreaterThan(0);
    expect(nightBytes).toBeLessThanOrEqual(SIZE - MiB);
  });

  it('shows the analytics the night share of every byte served and what it saved at the day and night prices', async () => {
    const res = await t.request('GET', '/api/admin/analytics?days=7', { token: adminToken });
    expect(res.status, res.text).toBe(200);
    const figures = PlatformAnalytics.parse(res.json);
    const served = figures.servedBySize.reduce((sum, s) => sum + s.fetchedBytes, 0);
    expect(served).toBe(3_500_000 + SIZE);
    expect(figures.nightBytes).toBeGreaterThan(2_000_000);
    expect(figures.nightShare).toBeCloseTo(figures.nightBytes / served, 10);
    // UGX 6,000 by day, 2,000 at night: UGX 4,000 saved per 10⁹ bytes.
    expect(figures.nightSavedUgx).toBe(Math.round((figures.nightBytes * 4000) / 1e9));
  });
});
