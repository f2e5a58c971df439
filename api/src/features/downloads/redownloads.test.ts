import { DownloadUrlResponse, RedownloadAllowance } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redownloads } from '../../db/schema.ts';
import {
  type TestApp,
  createAgentAs,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { type AddedMovie, addMovie, createPlan, fetchLink, subscribe } from '../../../test/library.ts';
import { VERDICT_TTL_MS } from './link-checks.ts';

/**
 * A movie completed once is never lost for good (decision 0121): a few re-downloads a month (REDOWNLOADS_PER_MONTH,
 * 3 by default) reopen its grant, the bytes are served and counted again, and the movie stays downloaded for every
 * rule meanwhile. Past the allowance the server refuses and says when it renews; an admin can grant one more.
 */
describe.each(testDatabases)('re-downloads on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  /** A plan of its own (two Kinayuganda movies and an English one) and a subscriber on it. */
  async function setUp() {
    const planId = await createPlan(t, adminToken);
    const k1 = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: 5_000 });
    const k2 = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: 3_000 });
    const english = await addMovie(t, adminToken, { category: 'English', planIds: [planId] });
    const registered = await registerUser(t);
    await subscribe(t, adminToken, registered.user.id, planId);
    return { k1, k2, english, token: registered.token as string, userId: registered.user.id as string };
  }

  const grant = (token: string, movie: AddedMovie, redownload?: boolean) =>
    t.request('POST', '/api/users/movies/generate-download-url', {
      token,
      body: { movieId: movie.movie.id, ...(redownload === undefined ? {} : { redownload }) },
    });
  const complete = (token: string, id: string) =>
    t.request('PUT', `/api/users/downloads/${id}/complete`, { token, body: {} });
  const allowance = async (token: string) => {
    const res = await t.request('GET', '/api/users/me/redownloads', { token });
    expect(res.status, res.text).toBe(200);
    return RedownloadAllowance.parse(res.json);
  };

  /** Asks for a link, reads the whole file through it and completes: what the app does. */
  async function downloadWhole(token: string, movie: AddedMovie, redownload?: boolean) {
    const res = await grant(token, movie, redownload);
    expect(res.status, res.text).toBe(200);
    const link = DownloadUrlResponse.parse(res.json);
    const fetched = await fetchLink(t, link.downloadUrl);
    expect(fetched.status).toBe(200);
    expect(fetched.bytes.equals(movie.bytes)).toBe(true);
    const done = await complete(token, link.downloadId);
    expect(done.status, done.text).toBe(200);
    expect(done.json.status).toBe('completed');
    return link;
  }

  it('reopens a completed movie within the allowance: bytes served and counted again, /complete works again', async () => {
    const { k1, token } = await setUp();
    const first = await downloadWhole(token, k1);
    expect(first.redownloads).toBeNull();
    expectErrorEnvelope(await grant(token, k1), 409, 'already_downloaded');

    const again = await grant(token, k1, true);
    expect(again.status, again.text).toBe(200);
    const link = DownloadUrlResponse.parse(again.json);
    // One row per person and movie: the same download, reopened.
    expect(link.downloadId).toBe(first.downloadId);
    expect(link.redownloads).toMatchObject({ perMonth: 3, usedThisMonth: 1, extra: 0, remaining: 2 });
    expect(link.redownloads!.renewsAt).toBe('2026-11-30T21:00:00.000Z');
    // Delivered bytes count from zero again: completing before fetching is refused.
    const early = await complete(token, link.downloadId);
    expectErrorEnvelope(
      early,
      409,
      'conflict',
      `The download is not complete: 0 of ${k1.bytes.length} bytes received.`,
    );

    const part = await fetchLink(t, link.downloadUrl, 'bytes=0-999');
    expect(part.status).toBe(206);
    const rest = await fetchLink(t, link.downloadUrl, 'bytes=1000-');
    expect(Buffer.concat([part.bytes, rest.bytes]).equals(k1.bytes)).toBe(true);
    const done = await complete(token, link.downloadId);
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ status: 'completed', canResume: false, progress: 100 });

    // Closed again: no new link without another re-download, and the reopened link stops working.
    expectErrorEnvelope(await grant(token, k1), 409, 'already_downloaded');
    t.clock.advance(VERDICT_TTL_MS);
    expect((await fetchLink(t, link.downloadUrl, 'bytes=0-9')).status).toBe(403);
    expect(await allowance(token)).toMatchObject({ usedThisMonth: 1, remaining: 2 });
  });

  it('keeps the movie downloaded for Kinayuganda-first and the counts while it downloads again', async () => {
    const { k1, k2, english, token } = await setUp();
    await downloadWhole(token, k1);
    await downloadWhole(token, k2);
    const reopened = await grant(token, k1, true);
    expect(reopened.status, reopened.text).toBe(200);

    const status = await t.request('GET', '/api/users/me/kinayuganda-download-status', { token });
    expect(status.json).toMatchObject({ hasDownloadedAllKinayuganda: true, required: 2, completed: 2 });
    const stats = await t.request('GET', '/api/users/me/download-stats', { token });
    expect(stats.json.summary.totalMoviesDownloaded).toBe(2);
    const card = await t.request('GET', `/api/users/movies/${k1.movie.id}`, { token });
    expect(card.json.movie.access).toBe('downloaded');
    // English is not locked by the movie being fetched again.
    expect((await grant(token, english)).status).toBe(200);
    // A plain request for the reopened movie resumes it (the app's next link), taking nothing more.
    const resumed = await grant(token, k1);
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.json.downloadId).toBe(reopened.json.downloadId);
    expect(await allowance(token)).toMatchObject({ usedThisMonth: 1, remaining: 2 });
  });

  it('refuses past the allowance, says when it renews, and renews with the Kampala month', async () => {
    const { k1, token } = await setUp();
    await downloadWhole(token, k1);
    for (let i = 0; i < 3; i++) await downloadWhole(token, k1, true);
    expect(await allowance(token)).toMatchObject({ perMonth: 3, usedThisMonth: 3, extra: 0, remaining: 0 });

    const refused = await grant(token, k1, true);
    expectErrorEnvelope(
      refused,
      409,
      'redownload_limit',
      'You have used all 3 re-downloads for this month. They renew on 1 December. If you need this movie sooner, contact support: they can grant one.',
    );
    // 1 December, 00:00 in Kampala: a new month's allowance.
    const clock = t.clock.now().getTime();
    t.clock.advance(Date.parse('2026-11-30T21:00:00.000Z') - clock);
    const renewed = await grant(token, k1, true);
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.json.redownloads).toMatchObject({ usedThisMonth: 1, remaining: 2 });
    t.clock.advance(clock - t.clock.now().getTime());
  });

  it('an admin grants one more re-download, used after the month’s own', async () => {
    const { k1, token, userId } = await setUp();
    await downloadWhole(token, k1);
    for (let i = 0; i < 3; i++) await downloadWhole(token, k1, true);
    expectErrorEnvelope(await grant(token, k1, true), 409, 'redownload_limit');

    const granted = await t.request('POST', `/api/admin/subscribers/${userId}/redownloads`, { token: adminToken });
    expect(granted.status, granted.text).toBe(200);
    expect(granted.json.subscriber).toMatchObject({ id: userId, extra_redownloads: 1 });
    expect(await allowance(token)).toMatchObject({ usedThisMonth: 3, extra: 1, remaining: 1 });

    const link = await downloadWhole(token, k1, true);
    expect(link.redownloads).toMatchObject({ usedThisMonth: 3, extra: 0, remaining: 0 });
    expectErrorEnvelope(await grant(token, k1, true), 409, 'redownload_limit');
    // Only an admin grants, and never to the protected admin.
    expectErrorEnvelope(
      await t.request('POST', `/api/admin/subscribers/${userId}/redownloads`, { token }),
      403,
      'forbidden',
    );
    const me = await t.request('GET', '/api/auth/profile', { token: adminToken });
    const own = await t.request('POST', `/api/admin/subscribers/${me.json.id}/redownloads`, { token: adminToken });
    expectErrorEnvelope(own, 403, 'forbidden');
  });

  it('a movie never completed is an ordinary grant, and agents have no re-downloads', async () => {
    const { k2, token } = await setUp();
    const first = await grant(token, k2, true);
    expect(first.status, first.text).toBe(200);
    expect(first.json.redownloads).toMatchObject({ usedThisMonth: 0, remaining: 3 });
    const { agent, password } = await createAgentAs(t, adminToken);
    const login = await t.request('POST', '/api/auth/agent/login', {
      body: { email: agent.email, password },
      ip: freshIp(),
    });
    const agentToken = login.json.token as string;
    await downloadWhole(agentToken, k2);
    expectErrorEnvelope(await grant(agentToken, k2, true), 403, 'forbidden');
  });

  // Under the 12 links a download may get without progress (decision 0111): each of these mints one.
  const concurrency = 10;
  const rounds = kind === 'postgres' ? 10 : 2;
  it(`${concurrency} simultaneous re-download requests take one re-download (${rounds} rounds)`, async () => {
    for (let round = 0; round < rounds; round++) {
      const { k1, token, userId } = await setUp();
      await downloadWhole(token, k1);
      const responses = await Promise.all(Array.from({ length: concurrency }, () => grant(token, k1, true)));
      expect(responses.map((r) => r.status)).toEqual(Array(concurrency).fill(200));
      expect(new Set(responses.map((r) => r.json.downloadId)).size).toBe(1);
      const rows = await t.deps.database.db.select().from(redownloads).where(eq(redownloads.userId, userId));
      expect(rows).toHaveLength(1);
      expect(await allowance(token)).toMatchObject({ usedThisMonth: 1, remaining: 2 });
    }
  });
});
