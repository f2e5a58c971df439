import { DownloadRecord, DownloadUrlResponse, PlatformAnalytics, UserMovie } from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movieRenditions } from '../../db/schema.ts';
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

/**
 * Downloads by size (decision 0126): a movie lists its ready renditions, a grant hands out the chosen file, a size
 * change restarts the download in the new file, and every byte sent is counted as fetched.
 */

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const ORIGINAL = 8000;
const SMALL = 1000;
/** The HEVC Small (decision 0251): the smallest file of a movie. */
const SMALL_HEVC = 700;
const STANDARD = 3000;

describe.each(testDatabases)('download sizes on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let planId: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { METRICS_TOKEN } });
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
  });
  afterAll(() => t.close());

  /** A movie with a ready Small and Standard and an HD still encoding. */
  async function movieWithSizes() {
    const added = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: ORIGINAL });
    const id = added.movie.id;
    const small = await addReadyRendition(t, id, 'small', SMALL);
    const standard = await addReadyRendition(t, id, 'standard', STANDARD);
    await t.deps.database.db.insert(movieRenditions).values({ movieId: id, kind: 'hd', state: 'encoding' });
    return { added, small, standard };
  }

  async function subscriber() {
    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id as string, planId);
    return token;
  }

  const grant = (token: string, body: Record<string, unknown>) =>
    t.request('POST', '/api/users/movies/generate-download-url', { token, body });
  async function link(token: string, body: Record<string, unknown>) {
    const res = await grant(token, body);
    expect(res.status, res.text).toBe(200);
    return DownloadUrlResponse.parse(res.json);
  }
  async function record(token: string, added: AddedMovie) {
    const res = await t.request('GET', `/api/users/downloads/${added.movie.id}/status`, { token });
    expect(res.status, res.text).toBe(200);
    return DownloadRecord.parse(res.json);
  }
  const complete = (token: string, id: string) =>
    t.request('PUT', `/api/users/downloads/${id}/complete`, { token, body: {} });

  it('lists the ready sizes smallest first, then the original, to everyone (renditions not ready are left out)', async () => {
    const { added } = await movieWithSizes();
    await addReadyRendition(t, added.movie.id, 'small-hevc', SMALL_HEVC);
    const expected = [
      { size: 'small-hevc', bytes: SMALL_HEVC, height: 360 },
      { size: 'small', bytes: SMALL, height: 360 },
      { size: 'standard', bytes: STANDARD, height: 540 },
      { size: 'original', bytes: ORIGINAL, height: null },
    ];
    const token = await subscriber();
    const user = await t.request('GET', `/api/users/movies/${added.movie.id}`, { token });
    expect(UserMovie.parse(user.json.movie).sizes).toEqual(expected);
    const listed = await t.request('GET', '/api/users/public-movies?pageSize=50');
    expect(listed.json.movies.find((m: { id: string }) => m.id === added.movie.id).sizes).toEqual(expected);
    const admin = await t.request('GET', '/api/admin/movies', { token: adminToken });
    expect(admin.json.movies.find((m: { id: string }) => m.id === added.movie.id).sizes).toEqual(expected);

    // HD becomes ready: the catalogue moves (a trigger bumps its version) and the list follows at once.
    await addReadyRendition(t, added.movie.id, 'hd', 5000);
    const after = await t.request('GET', `/api/users/movies/${added.movie.id}`, { token });
    expect(after.json.movie.sizes.map((s: { size: string }) => s.size)).toEqual([
      'small-hevc',
      'small',
      'standard',
      'hd',
      'original',
    ]);
  });

  it('grants Small: its size, a link to its bytes (ranges byte-exact), a download of its size', async () => {
    const { added, small } = await movieWithSizes();
    const token = await subscriber();
    const granted = await link(token, { movieId: added.movie.id, size: 'small' });
    expect(granted).toMatchObject({ size: 'small', fileSize: SMALL, downloadedBytes: 0 });
    expect(granted.fileName).toMatch(/ \(Small\)\.mp4$/);
    expect((await fetchLink(t, granted.downloadUrl, 'bytes=100-199')).bytes).toEqual(small.bytes.subarray(100, 200));
    expect(await record(token, added)).toMatchObject({ size: 'small', totalBytes: SMALL });
    // Without a size, the download keeps its own.
    expect(await link(token, { movieId: added.movie.id })).toMatchObject({ size: 'small', fileSize: SMALL });
    const whole = await fetchLink(t, granted.downloadUrl);
    expect(whole.bytes).toEqual(small.bytes);
    const done = await complete(token, granted.downloadId);
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ status: 'completed', size: 'small', totalBytes: SMALL });
  });

  it('gives a new download without a size the original (the spec client knows no sizes)', async () => {
    const { added } = await movieWithSizes();
    const token = await subscriber();
    const granted = await link(token, { s3Key: added.movie.s3_key });
    expect(granted).toMatchObject({ size: 'original', fileSize: ORIGINAL });
    expect((await fetchLink(t, granted.downloadUrl)).bytes).toEqual(added.bytes);
  });

  it('refuses a size that is not ready with 409, naming the sizes that are', async () => {
    const { added } = await movieWithSizes();
    const token = await subscriber();
    expectErrorEnvelope(
      await grant(token, { movieId: added.movie.id, size: 'hd' }),
      409,
      'conflict',
      'HD is not ready for this movie yet. Sizes you can download now: Small, Standard, Original.',
    );
    expectErrorEnvelope(await grant(token, { movieId: added.movie.id, size: 'huge' }), 400, 'validation_error');
  });

  it('restarts an unfinished download in a new size from zero, never mixing the two files', async () => {
    const { added, small } = await movieWithSizes();
    const token = await subscriber();
    const original = await link(token, { movieId: added.movie.id });
    expect((await fetchLink(t, original.downloadUrl, 'bytes=0-4999')).status).toBe(206);
    await t.deps.deliveries.settled(original.downloadId);

    const switched = await link(token, { movieId: added.movie.id, size: 'small' });
    expect(switched).toMatchObject({
      downloadId: original.downloadId,
      size: 'small',
      fileSize: SMALL,
      downloadedBytes: 0,
    });
    expect(switched.etag).not.toBe(original.etag);
    // The original's link no longer serves under this download.
    expectErrorEnvelope(
      await (async () => {
        t.clock.advance(10_000);
        const res = await t.app.request(new URL(original.downloadUrl).pathname + new URL(original.downloadUrl).search);
        return { status: res.status, json: await res.json(), text: '', headers: res.headers };
      })(),
      403,
      'forbidden',
    );
    // 5,000 bytes of the original delivered before count for nothing in Small: completion needs Small's every byte.
    expect((await fetchLink(t, switched.downloadUrl, 'bytes=0-499')).bytes).toEqual(small.bytes.subarray(0, 500));
    expectErrorEnvelope(await complete(token, switched.downloadId), 409, 'conflict', /500 of 1000 bytes/);
    expect((await fetchLink(t, switched.downloadUrl, 'bytes=500-')).bytes).toEqual(small.bytes.subarray(500));
    const done = await complete(token, switched.downloadId);
    expect(done.status, done.text).toBe(200);
    // What it cost: the original's 5,000 bytes and Small's 1,000.
    expect(done.json).toMatchObject({ status: 'completed', size: 'small', totalBytes: SMALL, fetchedBytes: 6000 });
    const history = await t.request('GET', '/api/users/me/downloads', { token });
    expect(history.json.downloads[0]).toMatchObject({ size: 'small', movieSize: SMALL, fetchedBytes: 6000 });
    // A finished movie is not granted in another size (one download per movie), only re-downloaded.
    expectErrorEnvelope(await grant(token, { movieId: added.movie.id, size: 'standard' }), 409, 'already_downloaded');
  });

  it('never credits bytes of the old file still arriving after a change of size to the new one', async () => {
    const { added, small } = await movieWithSizes();
    const token = await subscriber();
    const original = await link(token, { movieId: added.movie.id });
    // A response of the original, started before the change, still sending after it.
    const late = t.deps.deliveries.track(original.downloadId, 0, ORIGINAL - 1, added.movie.s3_key);
    await link(token, { movieId: added.movie.id, size: 'small' });
    late.reached(SMALL);
    late.closed();
    await t.deps.deliveries.settled(original.downloadId);
    expectErrorEnvelope(await complete(token, original.downloadId), 409, 'conflict', /0 of 1000 bytes/);
    expect(await record(token, added)).toMatchObject({ size: 'small', fetchedBytes: SMALL });
    // Small's own bytes do count.
    const again = await link(token, { movieId: added.movie.id });
    expect((await fetchLink(t, again.downloadUrl)).bytes).toEqual(small.bytes);
    expect((await complete(token, again.downloadId)).json).toMatchObject({ status: 'completed', fetchedBytes: 2000 });
  });

  it('counts re-fetches as fetched, once as delivered; completion still needs every byte', async () => {
    const { added } = await movieWithSizes();
    const token = await subscriber();
    const granted = await link(token, { movieId: added.movie.id, size: 'small' });
    for (let i = 0; i < 2; i++) await fetchLink(t, granted.downloadUrl, 'bytes=0-499');
    await t.deps.deliveries.settled(granted.downloadId);
    expect(await record(token, added)).toMatchObject({ fetchedBytes: 1000 });
    expectErrorEnvelope(await complete(token, granted.downloadId), 409, 'conflict', /500 of 1000 bytes/);
    await fetchLink(t, granted.downloadUrl, 'bytes=500-999');
    const done = await complete(token, granted.downloadId);
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ fetchedBytes: 1500, totalBytes: SMALL });
  });

  it('lets a re-download choose any ready size', async () => {
    const { added, standard } = await movieWithSizes();
    const token = await subscriber();
    const first = await link(token, { movieId: added.movie.id, size: 'small' });
    await fetchLink(t, first.downloadUrl);
    expect((await complete(token, first.downloadId)).status).toBe(200);
    const again = await link(token, { movieId: added.movie.id, redownload: true, size: 'standard' });
    expect(again).toMatchObject({ downloadId: first.downloadId, size: 'standard', fileSize: STANDARD });
    expect((await fetchLink(t, again.downloadUrl)).bytes).toEqual(standard.bytes);
    const done = await complete(token, again.downloadId);
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ size: 'standard', totalBytes: STANDARD, fetchedBytes: SMALL + STANDARD });
  });

  it('stops a link whose rendition stopped being ready', async () => {
    const { added } = await movieWithSizes();
    const token = await subscriber();
    const granted = await link(token, { movieId: added.movie.id, size: 'small' });
    await t.deps.database.db
      .update(movieRenditions)
      .set({ state: 'failed' })
      .where(and(eq(movieRenditions.movieId, added.movie.id), eq(movieRenditions.kind, 'small')));
    t.clock.advance(10_000);
    expect((await fetchLink(t, granted.downloadUrl, 'bytes=0-9')).status).toBe(403);
    expectErrorEnvelope(await grant(token, { movieId: added.movie.id }), 409, 'conflict', /Small is not ready/);
  });

  it('shows bytes per size in /api/metrics and the admin analytics', async () => {
    const scrape = async (size: string) => {
      const res = await t.request('GET', '/api/metrics', { token: METRICS_TOKEN });
      const line = res.text.split('\n').find((l) => l.startsWith(`filamu_download_bytes_total{size="${size}"}`));
      return line ? Number(line.split(' ')[1]) : 0;
    };
    const analytics = async () => {
      const res = await t.request('GET', '/api/admin/analytics?days=7', { token: adminToken });
      expect(res.status, res.text).toBe(200);
      const parsed = PlatformAnalytics.parse(res.json);
      const of = (size: string) => parsed.servedBySize.find((s) => s.size === size)!;
      return {
        small: of('small'),
        smallHevc: of('small-hevc'),
        original: of('original'),
        share: parsed.smallShare,
        sizes: parsed.servedBySize,
      };
    };
    const before = {
      small: await scrape('small'),
      smallHevc: await scrape('small-hevc'),
      original: await scrape('original'),
      analytics: await analytics(),
    };
    const { added } = await movieWithSizes();
    await addReadyRendition(t, added.movie.id, 'small-hevc', SMALL_HEVC);
    const hevcToken = await subscriber();
    const hevc = await link(hevcToken, { movieId: added.movie.id, size: 'small-hevc' });
    expect(hevc).toMatchObject({ size: 'small-hevc', fileSize: SMALL_HEVC });
    await fetchLink(t, hevc.downloadUrl);
    expect((await complete(hevcToken, hevc.downloadId)).status).toBe(200);
    const token = await subscriber();
    const granted = await link(token, { movieId: added.movie.id, size: 'small' });
    await fetchLink(t, granted.downloadUrl, 'bytes=0-299');
    await fetchLink(t, granted.downloadUrl);
    expect((await complete(token, granted.downloadId)).status).toBe(200);
    const other = await link(await subscriber(), { movieId: added.movie.id });
    await fetchLink(t, other.downloadUrl, 'bytes=0-99');
    await t.deps.deliveries.settled(other.downloadId);

    expect(await scrape('small')).toBe(before.small + 1300);
    expect(await scrape('original')).toBe(before.original + 100);
    const after = await analytics();
    expect(await scrape('small-hevc')).toBe(before.smallHevc + SMALL_HEVC);
    expect(after.sizes.map((s) => s.size)).toEqual(['small-hevc', 'small', 'standard', 'hd', 'original']);
    expect(after.smallHevc.fetchedBytes).toBe(before.analytics.smallHevc.fetchedBytes + SMALL_HEVC);
    expect(after.smallHevc.completedDownloads).toBe(before.analytics.smallHevc.completedDownloads + 1);
    expect(after.small.fetchedBytes).toBe(before.analytics.small.fetchedBytes + 1300);
    expect(after.small.completedDownloads).toBe(before.analytics.small.completedDownloads + 1);
    expect(after.original.fetchedBytes).toBe(before.analytics.original.fetchedBytes + 100);
    const completed = after.sizes.reduce((sum, s) => sum + s.completedDownloads, 0);
    // Both Smalls count as Small (a subscriber reads both as "Small").
    const smalls = after.small.completedDownloads + after.smallHevc.completedDownloads;
    expect(after.share).toBeCloseTo(smalls / completed);
  });
});
