import {
  ALREADY_DOWNLOADED,
  DownloadHistory,
  DownloadRecord,
  DownloadStats,
  DownloadUrlResponse,
  KINAYUGANDA_FIRST,
  SUBSCRIPTION_REQUIRED,
} from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloads } from '../../db/schema.ts';
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
import { pauseStaleDownloads } from './bookkeeping.ts';
import { NOT_IN_PLAN } from './grants.ts';

const HOUR_MS = 3_600_000;

describe.each(testDatabases)('download rules and bookkeeping on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let planA: string;
  let planB: string;
  // Plan A: two Kinayuganda and one English; plan B only: one Kinayuganda and one English; plus an inactive one.
  let k1: AddedMovie, k2: AddedMovie, e1: AddedMovie, kB: AddedMovie, eB: AddedMovie, kInactive: AddedMovie;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    planA = await createPlan(t, adminToken);
    planB = await createPlan(t, adminToken);
    k1 = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planA], size: 10_000 });
    k2 = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planA], size: 5_000 });
    e1 = await addMovie(t, adminToken, { category: 'English', planIds: [planA], title: 'The English One' });
    kB = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planB] });
    eB = await addMovie(t, adminToken, { category: 'English', planIds: [planB] });
    kInactive = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planA] });
    const res = await t.request('PUT', `/api/admin/movies/${kInactive.movie.id}/toggle-active`, {
      token: adminToken,
      body: { is_active: false },
    });
    expect(res.status).toBe(200);
  });
  afterAll(() => t.close());

  const grant = (token: string, body: Record<string, unknown>) =>
    t.request('POST', '/api/users/movies/generate-download-url', { token, body });
  const start = (token: string, movieId: string) =>
    t.request('POST', '/api/users/downloads/start', { token, body: { movieId } });
  const progress = (token: string, id: string, downloadedBytes: number, totalBytes: number, status?: string) =>
    t.request('PUT', `/api/users/downloads/${id}/progress`, {
      token,
      body: { downloadedBytes, totalBytes, progress: (downloadedBytes / totalBytes) * 100, status },
    });
  const complete = (token: string, id: string, body?: Record<string, unknown>) =>
    t.request('PUT', `/api/users/downloads/${id}/complete`, { token, body: body ?? {} });
  const rowsOf = (movieId: string) => t.deps.database.db.select().from(downloads).where(eq(downloads.movieId, movieId));

  /**
   * Grants, fetches every byte and completes: the whole download of one movie. The server completed it as the last
   * byte went out (decision 0191); the app's `/complete` then answers the same record.
   */
  async function downloadFully(token: string, added: AddedMovie) {
    const granted = await grant(token, { movieId: added.movie.id });
    expect(granted.status, granted.text).toBe(200);
    const id = granted.json.downloadId as string;
    expect((await fetchLink(t, granted.json.downloadUrl as string)).bytes).toEqual(added.bytes);
    const done = await complete(token, id);
    expect(done.status, done.text).toBe(200);
    return id;
  }

  async function subscriber(planId = planA) {
    const registered = await registerUser(t);
    await subscribe(t, adminToken, registered.user.id, planId);
    return registered;
  }

  it('refuses a non-subscriber with the spec text and writes nothing', async () => {
    const { token } = await registerUser(t);
    const res = await grant(token, { movieId: k1.movie.id });
    expectErrorEnvelope(res, 403, 'subscription_required', SUBSCRIPTION_REQUIRED);
    expectErrorEnvelope(await start(token, k1.movie.id), 403, 'subscription_required');
    expect(await rowsOf(k1.movie.id)).toHaveLength(0);
  });

  it('refuses English until every entitled, active Kinayuganda movie is downloaded', async () => {
    const { token } = await subscriber();
    expectErrorEnvelope(await grant(token, { movieId: e1.movie.id }), 403, 'download_locked', KINAYUGANDA_FIRST);
    await downloadFully(token, k1);
    expectErrorEnvelope(await grant(token, { movieId: e1.movie.id }), 403, 'download_locked', KINAYUGANDA_FIRST);
    const status = await t.request('GET', '/api/users/me/kinayuganda-download-status', { token });
    expect(status.json).toEqual({
      hasDownloadedAllKinayuganda: false,
      englishKept: false,
      required: 2,
      completed: 1,
      hiddenByParentalPin: 0,
    });
    await downloadFully(token, k2);
    // kB (another plan) and kInactive (hidden) do not stand in the way.
    const english = await grant(token, { movieId: e1.movie.id });
    expect(english.status, english.text).toBe(200);
    expect((await t.request('GET', '/api/users/me/kinayuganda-download-status', { token })).json).toEqual({
      hasDownloadedAllKinayuganda: true,
      englishKept: true,
      required: 2,
      completed: 2,
      hiddenByParentalPin: 0,
    });
  });

  it("refuses movies outside the subscriber's plan", async () => {
    const { token } = await subscriber();
    expectErrorEnvelope(await grant(token, { movieId: kB.movie.id }), 403, 'forbidden', NOT_IN_PLAN);
    expectErrorEnvelope(await grant(token, { movieId: eB.movie.id }), 403, 'forbidden', NOT_IN_PLAN);
  });

  it('grants a signed link to the exact file, and resumes the same download', async () => {
    const { token } = await subscriber();
    const first = await grant(token, { movieId: k1.movie.id });
    expect(first.status, first.text).toBe(200);
    const body = DownloadUrlResponse.parse(first.json);
    expect(body).toMatchObject({ fileSize: 10_000, downloadedBytes: 0, resumedCount: 0 });
    expect(body.fileName).toBe(`${k1.movie.title}.mp4`);
    expect(new Date(body.expiresAt).getTime() - t.clock.now().getTime()).toBe(3600 * 1000);
    const url = new URL(body.downloadUrl);
    const file = await t.app.request(`${url.pathname}${url.search}`, { headers: { range: 'bytes=100-199' } });
    expect(file.status).toBe(206);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(k1.bytes.subarray(100, 200));

    // Asking again before any byte arrived is the same attempt (start, then link): same row, not a resume.
    const again = await start(token, k1.movie.id);
    expect(again.json).toMatchObject({ downloadId: body.downloadId, resumedCount: 0, status: 'starting' });

    expect((await progress(token, body.downloadId, 4000, 10_000)).json).toMatchObject({
      status: 'downloading',
      downloadedBytes: 4000,
      progress: 40,
    });
    const resumed = DownloadUrlResponse.parse((await grant(token, { movieId: k1.movie.id })).json);
    expect(resumed).toMatchObject({ downloadId: body.downloadId, resumedCount: 1, downloadedBytes: 4000 });
  });

  it('keeps progress monotonic and within the file size', async () => {
    const { token } = await subscriber();
    const id = (await grant(token, { movieId: k2.movie.id })).json.downloadId as string;
    expect((await progress(token, id, 3000, 5000)).json.downloadedBytes).toBe(3000);
    // A late, smaller report (another tab, a retry) never moves it back.
    expect((await progress(token, id, 1000, 5000)).json.downloadedBytes).toBe(3000);
    expectErrorEnvelope(await progress(token, id, 5001, 5000), 400, 'validation_error');
    expectErrorEnvelope(await progress(token, id, 10, 9999), 400, 'bad_request', /file size \(5000 bytes\)/);
    const paused = await progress(token, id, 3500, 5000, 'paused');
    expect(DownloadRecord.parse(paused.json)).toMatchObject({
      status: 'paused',
      downloadedBytes: 3500,
      canResume: true,
    });
  });

  it('completes only with every byte, once, and never grants the movie again', async () => {
    const { token } = await subscriber();
    const granted = await grant(token, { movieId: k2.movie.id });
    const id = granted.json.downloadId as string;
    expect((await fetchLink(t, granted.json.downloadUrl as string, 'bytes=0-4998')).status).toBe(206);
    await progress(token, id, 4999, 5000);
    expectErrorEnvelope(
      await complete(token, id),
      409,
      'conflict',
      'The download is not complete: 4999 of 5000 bytes received.',
    );
    expectErrorEnvelope(await complete(token, id, { downloadedBytes: 6000 }), 400, 'bad_request');
    expect((await fetchLink(t, granted.json.downloadUrl as string, 'bytes=4999-')).status).toBe(206);
    const done = await complete(token, id, { downloadedBytes: 5000 });
    expect(DownloadRecord.parse(done.json)).toMatchObject({ status: 'completed', progress: 100, canResume: false });
    expect((await complete(token, id)).json.status).toBe('completed');
    expectErrorEnvelope(await grant(token, { movieId: k2.movie.id }), 409, 'already_downloaded', ALREADY_DOWNLOADED);
    expectErrorEnvelope(await start(token, k2.movie.id), 409, 'already_downloaded', ALREADY_DOWNLOADED);
    expectErrorEnvelope(await progress(token, id, 5000, 5000), 409, 'conflict');
    expect((await t.request('GET', `/api/users/me/download-status/${k2.movie.id}`, { token })).json).toEqual({
      hasDownloaded: true,
    });
  });

  it("hides other people's downloads", async () => {
    const owner = await subscriber();
    const other = await subscriber();
    const id = (await grant(owner.token, { movieId: k1.movie.id })).json.downloadId as string;
    expectErrorEnvelope(await progress(other.token, id, 10, 10_000), 404, 'not_found');
    expectErrorEnvelope(await complete(other.token, id), 404, 'not_found');
    expectErrorEnvelope(
      await t.request('PUT', `/api/users/downloads/${id}/fail`, { token: other.token, body: { error: 'x' } }),
      404,
      'not_found',
    );
    expectErrorEnvelope(
      await t.request('GET', `/api/users/downloads/${k1.movie.id}/status`, { token: other.token }),
      404,
      'not_found',
    );
  });

  it('accepts the spec client’s s3Key, but only for the movie it names', async () => {
    const { token } = await subscriber();
    const byKey = await grant(token, { s3Key: k1.movie.s3_key });
    expect(byKey.status, byKey.text).toBe(200);
    expectErrorEnvelope(
      await grant(token, { movieId: k1.movie.id, s3Key: k2.movie.s3_key }),
      400,
      'bad_request',
      'The file key does not belong to this movie.',
    );
    expectErrorEnvelope(await grant(token, { s3Key: 'movies/../../etc/passwd' }), 404, 'not_found');
    expectErrorEnvelope(await grant(token, {}), 400, 'validation_error');
  });

  it('lets agents and admins download without a subscription, Kinayuganda first still', async () => {
    const { agent, password } = await createAgentAs(t, adminToken);
    const login = await t.request('POST', '/api/auth/agent/login', {
      body: { email: agent.email, password },
      ip: freshIp(),
    });
    const agentToken = login.json.token as string;
    // Staff are entitled to every active movie: kB of plan B too, and English waits for all three.
    expectErrorEnvelope(await grant(agentToken, { movieId: eB.movie.id }), 403, 'download_locked');
    for (const movie of [k1, k2, kB]) await downloadFully(agentToken, movie);
    expect((await grant(agentToken, { movieId: eB.movie.id })).status).toBe(200);
    expect((await grant(agentToken, { movieId: e1.movie.id })).status).toBe(200);
    expectErrorEnvelope(await grant(agentToken, { movieId: k1.movie.id }), 409, 'already_downloaded');
    expectErrorEnvelope(await grant(agentToken, { movieId: kInactive.movie.id }), 404, 'not_found');

    const adminGrant = await grant(adminToken, { movieId: kB.movie.id });
    expect(adminGrant.status, adminGrant.text).toBe(200);
    const stats = DownloadStats.parse(
      (await t.request('GET', '/api/users/me/download-stats', { token: agentToken })).json,
    );
    expect(stats.summary.totalMoviesDownloaded).toBe(3);
    expect(stats.summary.totalStorageUsed).toBe(10_000 + 5000 + kB.bytes.length);
  });

  it('stops granting when the subscription ends', async () => {
    const shortPlan = await createPlan(t, adminToken, { global_expiry_date: '2026-11-23T12:00' });
    const attach = await t.request('POST', `/api/admin/movies/${k1.movie.id}/attach-plans`, {
      token: adminToken,
      body: { planIds: [planA, shortPlan] },
    });
    expect(attach.status, attach.text).toBe(200);
    const { token } = await subscriber(shortPlan);
    const clock = t.clock;
    const id = (await grant(token, { movieId: k1.movie.id })).json.downloadId as string;
    await progress(token, id, 100, 10_000);
    clock.advance(2 * 24 * HOUR_MS);
    try {
      expectErrorEnvelope(await grant(token, { movieId: k1.movie.id }), 403, 'subscription_required');
    } finally {
      clock.advance(-2 * 24 * HOUR_MS);
    }
  });

  it('refuses inactive and unknown movies, and movies whose file is gone', async () => {
    const { token } = await subscriber();
    expectErrorEnvelope(await grant(token, { movieId: kInactive.movie.id }), 404, 'not_found');
    expectErrorEnvelope(await grant(token, { movieId: '7f1c9a52-3b1e-4c6d-9a8b-2e5f4d3c2b1a' }), 404, 'not_found');
    const lost = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planA] });
    await t.deps.storage.delete(lost.movie.s3_key);
    expectErrorEnvelope(await grant(token, { movieId: lost.movie.id }), 503, 'unavailable');
    expect(await rowsOf(lost.movie.id)).toHaveLength(0);
    // Remove it again so it does not stand in front of English for later tests.
    expect((await t.request('DELETE', `/api/admin/movies/${lost.movie.id}`, { token: adminToken })).status).toBe(200);
  });

  it('pauses downloads silent for an hour, and they stay resumable', async () => {
    const { token } = await subscriber();
    const id = (await grant(token, { movieId: k1.movie.id })).json.downloadId as string;
    await progress(token, id, 2500, 10_000);
    t.clock.advance(59 * 60_000);
    await pauseStaleDownloads(t.deps);
    expect((await t.request('GET', `/api/users/downloads/${k1.movie.id}/status`, { token })).json.status).toBe(
      'downloading',
    );
    t.clock.advance(2 * 60_000);
    expect(await pauseStaleDownloads(t.deps)).toBeGreaterThanOrEqual(1);
    const record = DownloadRecord.parse(
      (await t.request('GET', `/api/users/downloads/${k1.movie.id}/status`, { token })).json,
    );
    expect(record).toMatchObject({ downloadId: id, status: 'paused', downloadedBytes: 2500, canResume: true });
    const resumed = await grant(token, { movieId: k1.movie.id });
    expect(resumed.json).toMatchObject({ downloadId: id, resumedCount: 1, downloadedBytes: 2500 });
  });

  it('records failures, which stay resumable', async () => {
    const { token } = await subscriber();
    const id = (await grant(token, { movieId: k1.movie.id })).json.downloadId as string;
    const failed = await t.request('PUT', `/api/users/downloads/${id}/fail`, {
      token,
      body: { error: 'QuotaExceededError: storage is full' },
    });
    expect(failed.json).toMatchObject({ status: 'failed', canResume: true });
    expect((await grant(token, { movieId: k1.movie.id })).json).toMatchObject({ downloadId: id, resumedCount: 1 });
  });

  it('reports status, history and stats the way the profile and dashboard read them', async () => {
    const { token } = await subscriber();
    expectErrorEnvelope(
      await t.request('GET', `/api/users/downloads/${k1.movie.id}/status`, { token }),
      404,
      'not_found',
    );
    expect((await t.request('GET', '/api/users/me/download-stats', { token })).json).toEqual({
      summary: { totalMoviesDownloaded: 0, totalStorageUsed: 0, lastDownloadDate: null },
      detailedDownloads: [],
    });
    await downloadFully(token, k2);
    t.clock.advance(60_000);
    const id = (await grant(token, { movieId: k1.movie.id })).json.downloadId as string;
    await progress(token, id, 1000, 10_000);
    const history = DownloadHistory.parse((await t.request('GET', '/api/users/me/downloads', { token })).json);
    expect(history.downloads.map((d) => [d.movieTitle, d.status, d.progress])).toEqual([
      [k1.movie.title, 'downloading', 10],
      [k2.movie.title, 'completed', 100],
    ]);
    const stats = DownloadStats.parse((await t.request('GET', '/api/users/me/download-stats', { token })).json);
    expect(stats.summary).toMatchObject({ totalMoviesDownloaded: 1, totalStorageUsed: 5000 });
    expect(stats.detailedDownloads.map((d) => d.movieId)).toEqual([k2.movie.id]);
  });
});
