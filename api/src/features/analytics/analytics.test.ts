import { PlatformAnalytics, TopDownloads } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../db/schema.ts';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { type AddedMovie, addMovie, createPlan, fetchLink, subscribe } from '../../../test/library.ts';

const DAY_MS = 86_400_000;

describe.each(testDatabases)('admin analytics on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    // 2026-11-22 09:00 UTC is 12:00 in Kampala.
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  async function completeDownload(token: string, added: AddedMovie) {
    const granted = await t.request('POST', '/api/users/movies/generate-download-url', {
      token,
      body: { movieId: added.movie.id },
    });
    expect(granted.status, granted.text).toBe(200);
    // Completion counts the bytes /files delivered, so the test downloads them.
    await fetchLink(t, granted.json.downloadUrl as string);
    const done = await t.request('PUT', `/api/users/downloads/${granted.json.downloadId}/complete`, {
      token,
      body: { downloadedBytes: added.bytes.length },
    });
    expect(done.status, done.text).toBe(200);
  }

  it('counts subscribers, downloads and revenue, with daily series on Kampala days', async () => {
    const empty = PlatformAnalytics.parse((await t.request('GET', '/api/admin/analytics', { token: adminToken })).json);
    expect(empty).toMatchObject({ totalDownloads: 0, totalSubscribers: 0, newSubscribersThisWeek: 0, revenueUgx: 0 });
    expect(empty.daily).toHaveLength(30);
    expect((await t.request('GET', '/api/admin/download-stats', { token: adminToken })).json).toEqual({ stats: [] });
    expectErrorEnvelope(
      await t.request('GET', '/api/admin/analytics?days=0', { token: adminToken }),
      400,
      'validation_error',
    );

    const plan = await createPlan(t, adminToken);
    const early = await registerUser(t);
    t.clock.advance(8 * DAY_MS);
    adminToken = await loginAdmin(t); // the admin session (12 h) lapsed with the clock
    const [buyer, fan] = [await registerUser(t), await registerUser(t)];
    await subscribe(t, adminToken, buyer.user.id, plan);
    await subscribe(t, adminToken, fan.user.id, plan);
    const popular = await addMovie(t, adminToken, { title: 'Popular', planIds: [plan] });
    const other = await addMovie(t, adminToken, { title: 'Other', planIds: [plan] });
    const db = t.deps.database.db;
    const paid = (userId: string, amountUgx: number, completedAt: Date, status: 'completed' | 'failed' = 'completed') =>
      db.insert(payments).values({
        userId,
        planId: plan,
        planName: 'Plan',
        amountUgx,
        status,
        expiresAt: completedAt,
        nextCheckAt: completedAt,
        completedAt: status === 'completed' ? completedAt : null,
      });
    const now = t.clock.now();
    await paid(buyer.user.id, 20_000, now);
    await paid(fan.user.id, 5_000, new Date(now.getTime() - DAY_MS));
    await paid(early.user.id, 99_000, now, 'failed');

    await completeDownload(buyer.token, popular);
    await completeDownload(fan.token, popular);
    await completeDownload(fan.token, other);

    const res = await t.request('GET', '/api/admin/analytics?days=10', { token: adminToken });
    const figures = PlatformAnalytics.parse(res.json);
    expect(figures).toMatchObject({
      totalDownloads: 3,
      totalSubscribers: 3,
      activeSubscribers: 2,
      newSubscribersThisWeek: 2,
      totalMovies: 2,
      revenueUgx: 25_000,
      revenueTodayUgx: 20_000,
      // 2026-11-30 in Kampala: yesterday's payment is in this month too.
      revenueThisMonthUgx: 25_000,
      paymentsAwaitingReview: 0,
    });
    expect(figures.daily).toHaveLength(10);
    const today = figures.daily.at(-1)!;
    expect(today).toEqual({ date: '2026-11-30', downloads: 3, revenueUgx: 20_000, newSubscribers: 2 });
    expect(figures.daily.at(-2)).toEqual({ date: '2026-11-29', downloads: 0, revenueUgx: 5_000, newSubscribers: 0 });
    // The early sign-up was 8 days before today (Kampala): still inside the 10-day series.
    expect(figures.daily.find((d) => d.date === '2026-11-22')).toMatchObject({ newSubscribers: 1 });
    expect(figures.daily.reduce((n, d) => n + d.downloads, 0)).toBe(3);

    const top = TopDownloads.parse((await t.request('GET', '/api/admin/download-stats', { token: adminToken })).json);
    expect(top.stats).toEqual([
      { movie_id: popular.movie.id, movie_title: 'Popular', download_count: 2 },
      { movie_id: other.movie.id, movie_title: 'Other', download_count: 1 },
    ]);
  });

  it('puts a download just after Kampala midnight on the new day', async () => {
    // 21:30 UTC is 00:30 the next day in Kampala.
    const t2 = await createTestApp(kind);
    try {
      t2.clock.advance(12.5 * 3_600_000);
      const admin = await loginAdmin(t2);
      const plan = await createPlan(t2, admin);
      const movie = await addMovie(t2, admin, { planIds: [plan] });
      const { token, user } = await registerUser(t2);
      await subscribe(t2, admin, user.id, plan);
      const granted = await t2.request('POST', '/api/users/movies/generate-download-url', {
        token,
        body: { movieId: movie.movie.id },
      });
      await fetchLink(t2, granted.json.downloadUrl as string);
      await t2.request('PUT', `/api/users/downloads/${granted.json.downloadId}/complete`, {
        token,
        body: { downloadedBytes: movie.bytes.length },
      });
      const figures = PlatformAnalytics.parse(
        (await t2.request('GET', '/api/admin/analytics?days=2', { token: admin })).json,
      );
      expect(figures.daily).toEqual([
        { date: '2026-11-22', downloads: 0, revenueUgx: 0, newSubscribers: 0 },
        { date: '2026-11-23', downloads: 1, revenueUgx: 0, newSubscribers: 1 },
      ]);
    } finally {
      await t2.close();
    }
  });

  it('counts revenue today and this month from Kampala midnight, and the payments waiting for review', async () => {
    // The clock starts at 2026-11-22 09:00 UTC; this moves it to 2026-12-02 21:30 UTC, 00:30 on 3 December in Kampala.
    const t3 = await createTestApp(kind);
    try {
      t3.clock.advance(10 * DAY_MS + 12.5 * 3_600_000);
      const admin = await loginAdmin(t3);
      const plan = await createPlan(t3, admin);
      const { user } = await registerUser(t3);
      const at = (iso: string) => new Date(iso);
      const pay = (amountUgx: number, status: 'completed' | 'failed' | 'review' | 'pending', when: Date) =>
        t3.deps.database.db.insert(payments).values({
          userId: user.id,
          planId: plan,
          planName: 'Plan',
          amountUgx,
          status,
          expiresAt: when,
          nextCheckAt: when,
          completedAt: status === 'completed' ? when : null,
        });
      await pay(1_000, 'completed', at('2026-12-02T21:10:00Z')); // 00:10 on 3 Dec, Kampala: today
      await pay(2_000, 'completed', at('2026-12-02T20:50:00Z')); // 23:50 on 2 Dec, Kampala: this month, not today
      await pay(4_000, 'completed', at('2026-11-30T21:10:00Z')); // 00:10 on 1 Dec, Kampala: this month
      await pay(8_000, 'completed', at('2026-11-30T20:50:00Z')); // 23:50 on 30 Nov, Kampala: last month
      await pay(16_000, 'failed', at('2026-12-02T21:20:00Z'));
      await pay(32_000, 'review', at('2026-12-02T21:20:00Z'));
      await pay(64_000, 'review', at('2026-10-01T09:00:00Z')); // waiting since October: still waiting
      await pay(128_000, 'pending', at('2026-12-02T21:25:00Z'));

      const res = await t3.request('GET', '/api/admin/analytics?days=1', { token: admin });
      expect(res.status, res.text).toBe(200);
      expect(PlatformAnalytics.parse(res.json)).toMatchObject({
        revenueUgx: 15_000,
        revenueTodayUgx: 1_000,
        revenueThisMonthUgx: 7_000,
        paymentsAwaitingReview: 2,
      });
    } finally {
      await t3.close();
    }
  });
});
