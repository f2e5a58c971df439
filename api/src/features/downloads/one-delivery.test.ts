import { DownloadUrlResponse, PlatformAnalytics } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloads } from '../../db/schema.ts';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import {
  type AddedMovie,
  addMovie,
  addReadyRendition,
  createPlan,
  fetchLink,
  subscribe,
} from '../../../test/library.ts';
import { TOO_MANY_COPIES } from './grant-caps.ts';
import { MAX_LINKS_WITHOUT_PROGRESS, TOO_MANY_LINKS } from './grants.ts';

/**
 * A download is one delivery (decision 0191): it completes itself when `/files` has delivered its file, its links die
 * once the phone confirms it has the file (until then the same file may be finished, decision 0213), a change of size
 * after that is a re-download, links are counted per download whatever the size, and one grant is sent at most three
 * copies of its file.
 */

const REVOKED = 'This download link is no longer valid. Ask for a new one.';
const ORIGINAL = 8_000;
const SMALL = 1_000;

describe.each(testDatabases)('a download is one delivery on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  /** A plan of its own: two Kinayuganda movies (the first with a ready Small) and an English one; a subscriber. */
  async function setUp() {
    const planId = await createPlan(t, adminToken);
    const k1 = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: ORIGINAL });
    const small = await addReadyRendition(t, k1.movie.id, 'small', SMALL);
    const k2 = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: 3_000 });
    const english = await addMovie(t, adminToken, { category: 'English', planIds: [planId] });
    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id as string, planId);
    return { k1, small, k2, english, token: token as string };
  }

  const grant = (token: string, movie: AddedMovie, body: Record<string, unknown> = {}) =>
    t.request('POST', '/api/users/movies/generate-download-url', { token, body: { movieId: movie.movie.id, ...body } });
  async function link(token: string, movie: AddedMovie, body: Record<string, unknown> = {}) {
    const res = await grant(token, movie, body);
    expect(res.status, res.text).toBe(200);
    return DownloadUrlResponse.parse(res.json);
  }
  /** Fetches and waits until what was delivered is written (and the download completed, when it was the last byte). */
  async function fetchAll(granted: { downloadUrl: string; downloadId: string }, range?: string) {
    const fetched = await fetchLink(t, granted.downloadUrl, range);
    await t.deps.deliveries.settled(granted.downloadId);
    return fetched;
  }
  const rowOf = async (id: string) =>
    (await t.deps.database.db.select().from(downloads).where(eq(downloads.id, id)))[0]!;
  const completedDownloads = async () => {
    const res = await t.request('GET', '/api/admin/analytics?days=7', { token: adminToken });
    expect(res.status, res.text).toBe(200);
    return PlatformAnalytics.parse(res.json).servedBySize.reduce((sum, s) => sum + s.completedDownloads, 0);
  };

  it('completes itself once its file is delivered, without /complete: counted, English unlocked; links end once the phone confirms', async () => {
    const { k1, k2, english, token } = await setUp();
    const before = await completedDownloads();
    expectErrorEnvelope(await grant(token, english), 403, 'download_locked');

    const first = await link(token, k1);
    expect((await fetchAll(first)).bytes).toEqual(k1.bytes);
    // The second in two ranges, overlapping: covered is covered.
    const second = await link(token, k2);
    await fetchAll(second, 'bytes=0-1999');
    expect((await rowOf(second.downloadId)).status).not.toBe('completed');
    await fetchAll(second, 'bytes=1500-');

    for (const [movie, granted] of [
      [k1, first],
      [k2, second],
    ] as const) {
      const status = await t.request('GET', `/api/users/downloads/${movie.movie.id}/status`, { token });
      expect(status.json).toMatchObject({ status: 'completed', progress: 100, canResume: false });
      expect((await rowOf(granted.downloadId)).completedAt).not.toBeNull();
      // Bytes the phone lost on the way (a drop after the server wrote them) can still be fetched for the same file,
      // by the link or a fresh one, within the copies cap (decision 0213)…
      expect((await fetchLink(t, granted.downloadUrl, 'bytes=0-9')).status).toBe(206);
      expect((await grant(token, movie)).status).toBe(200);
      // …until the phone confirms it has the file: then the old link is refused at once, and no new one is given.
      const confirmed = await t.request('PUT', `/api/users/downloads/${granted.downloadId}/complete`, {
        token,
        body: {},
      });
      expect(confirmed.status, confirmed.text).toBe(200);
      expect(confirmed.json).toMatchObject({ status: 'completed' });
      const refused = await fetchLink(t, granted.downloadUrl, 'bytes=0-9');
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text).error).toMatchObject({ code: 'forbidden', message: REVOKED });
      expectErrorEnvelope(await grant(token, movie), 409, 'already_downloaded');
    }
    const stats = await t.request('GET', '/api/users/me/download-stats', { token });
    expect(stats.json.summary.totalMoviesDownloaded).toBe(2);
    expect(await completedDownloads()).toBe(before + 2);
    // Both Kinayuganda movies delivered: English is open, and kept for the period.
    expect((await grant(token, english)).status).toBe(200);
    const kinayuganda = await t.request('GET', '/api/users/me/kinayuganda-download-status', { token });
    expect(kinayuganda.json).toMatchObject({ hasDownloadedAllKinayuganda: true, englishKept: true, completed: 2 });
  });

  it('stops a link farm alternating Original and Small well before 40 links', async () => {
    const { k1, token } = await setUp();
    // Fetching each link whole: the first delivery completes the download, the next link is refused.
    const sizes = ['original', 'small'] as const;
    const whole = await link(token, k1, { size: 'original' });
    expect((await fetchAll(whole)).bytes).toEqual(k1.bytes);
    expectErrorEnvelope(await grant(token, k1, { size: 'small' }), 409, 'already_downloaded');

    // Fetching all but the last byte of each (never complete): the copies sent run out after three.
    const other = await setUp();
    let given = 0;
    let refusal: Awaited<ReturnType<typeof grant>> | null = null;
    for (let i = 0; i < 40 && !refusal; i++) {
      const size = sizes[i % 2]!;
      const res = await grant(other.token, other.k1, { size });
      if (res.status !== 200) {
        refusal = res;
        break;
      }
      given += 1;
      const granted = DownloadUrlResponse.parse(res.json);
      const bytes = size === 'small' ? other.small.bytes : other.k1.bytes;
      expect((await fetchAll(granted, `bytes=0-${bytes.length - 2}`)).bytes).toEqual(
        bytes.subarray(0, bytes.length - 1),
      );
    }
    expect(given).toBeLessThanOrEqual(4);
    expectErrorEnvelope(refusal!, 409, 'conflict', TOO_MANY_COPIES);
  });

  it('counts links per download: switching sizes never resets the count', async () => {
    const { k1, token } = await setUp();
    const sizes = ['original', 'small'] as const;
    let given = 0;
    let refusal: Awaited<ReturnType<typeof grant>> | null = null;
    for (let i = 0; i < 40; i++) {
      const res = await grant(token, k1, { size: sizes[i % 2] });
      if (res.status !== 200) {
        refusal = res;
        break;
      }
      given += 1;
      // A few bytes of each: new in the new file, but not past the share of the file reached before.
      await fetchAll(DownloadUrlResponse.parse(res.json), 'bytes=0-99');
    }
    expect(given).toBeLessThanOrEqual(MAX_LINKS_WITHOUT_PROGRESS + 2);
    expectErrorEnvelope(refusal!, 409, 'conflict', TOO_MANY_LINKS);
  });

  it('makes a change of size after full delivery a re-download', async () => {
    const { k1, small, token } = await setUp();
    const first = await link(token, k1, { size: 'small' });
    expect((await fetchAll(first)).bytes).toEqual(small.bytes);
    expectErrorEnvelope(await grant(token, k1, { size: 'original' }), 409, 'already_downloaded');
    const again = await link(token, k1, { size: 'original', redownload: true });
    expect(again).toMatchObject({ downloadId: first.downloadId, size: 'original', fileSize: ORIGINAL });
    expect(again.redownloads).toMatchObject({ usedThisMonth: 1, remaining: 2 });
    // The re-download is one delivery too: it closes itself when the original has arrived.
    expect((await fetchAll(again)).bytes).toEqual(k1.bytes);
    expectErrorEnvelope(await grant(token, k1, { size: 'small' }), 409, 'already_downloaded');
    const allowance = await t.request('GET', '/api/users/me/redownloads', { token });
    expect(allowance.json).toMatchObject({ usedThisMonth: 1, remaining: 2 });
  });

  it('closes a download delivered in full whose completion was not written, at its next grant', async () => {
    const { k1, token } = await setUp();
    const first = await link(token, k1, { size: 'small' });
    // As if the completion after the last write had failed: every byte delivered, the row still open.
    await t.deps.database.db
      .update(downloads)
      .set({ deliveredRanges: [[0, SMALL]], deliveredBytes: SMALL, status: 'downloading' })
      .where(eq(downloads.id, first.downloadId));
    expectErrorEnvelope(await grant(token, k1, { size: 'original' }), 409, 'already_downloaded');
    expect(await rowOf(first.downloadId)).toMatchObject({ status: 'completed' });
  });

  it('stops a link that fetches the file over and over, and says why', async () => {
    const { k2, token } = await setUp();
    const granted = await link(token, k2);
    const size = k2.bytes.length;
    const served: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await fetchAll(granted, `bytes=0-${size - 2}`);
      served.push(res.status);
      if (res.status !== 206) {
        expect(JSON.parse(res.text).error).toMatchObject({ code: 'forbidden', message: REVOKED });
        break;
      }
    }
    // Three copies, and the response that crossed the third: then the link stops.
    expect(served).toEqual([206, 206, 206, 206, 403]);
    // What the app shows when it asks for a fresh link.
    expectErrorEnvelope(await grant(token, k2), 409, 'conflict', TOO_MANY_COPIES);
    expect((await rowOf(granted.downloadId)).fetchedBytes).toBe(4 * (size - 1));
  });
});
