import { DownloadUrlResponse } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { backgroundLinkSeconds } from './background-links.ts';
import { Deliveries } from './deliveries.ts';
import { MAX_LINKS_WITHOUT_PROGRESS, TOO_MANY_LINKS } from './grants.ts';
import { VERDICT_TTL_MS } from './link-checks.ts';

/**
 * A signed /files link is only as good as the grant behind it (checked per request, cached a few seconds), and
 * "downloaded" is what /files delivered, not what the client says.
 */

const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const REVOKED = 'This download link is no longer valid. Ask for a new one.';

describe.each(testDatabases)('download links follow their grant on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let planId: string;
  let k1: AddedMovie, k2: AddedMovie, english: AddedMovie;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
    k1 = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: 10_000 });
    k2 = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId], size: 3_000 });
    english = await addMovie(t, adminToken, { category: 'English', planIds: [planId] });
  });
  afterAll(() => t.close());

  async function subscriber() {
    const registered = await registerUser(t);
    await subscribe(t, adminToken, registered.user.id, planId);
    return registered;
  }
  const grant = (token: string, movieId: string, headers?: Record<string, string>, purpose?: string) =>
    t.request('POST', '/api/users/movies/generate-download-url', { token, body: { movieId, purpose }, headers });
  async function link(token: string, movie: AddedMovie) {
    const res = await grant(token, movie.movie.id);
    expect(res.status, res.text).toBe(200);
    return DownloadUrlResponse.parse(res.json);
  }
  const complete = (token: string, id: string, downloadedBytes?: number) =>
    t.request('PUT', `/api/users/downloads/${id}/complete`, { token, body: { downloadedBytes } });

  /** The link works, `end` happens, and once the verdict cache window has passed the link is refused. */
  async function expectLinkEndsWith(token: string, end: () => Promise<void>, movie = k1) {
    const { downloadUrl } = await link(token, movie);
    expect((await fetchLink(t, downloadUrl, 'bytes=0-9')).status).toBe(206);
    await end();
    t.clock.advance(VERDICT_TTL_MS);
    const refused = await fetchLink(t, downloadUrl, 'bytes=0-9');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).error).toMatchObject({ code: 'forbidden', message: REVOKED });
  }

  it('dies with logout', async () => {
    const { token } = await subscriber();
    await expectLinkEndsWith(token, async () => {
      expect((await t.request('POST', '/api/auth/logout', { token })).status).toBe(200);
    });
  });

  it('dies with a password change, even in the session that changed it', async () => {
    const { token, body } = await subscriber();
    await expectLinkEndsWith(token, async () => {
      const changed = await t.request('POST', '/api/users/change-password', {
        token,
        body: { currentPassword: body.password, newPassword: 'another horse battery' },
      });
      expect(changed.status, changed.text).toBe(200);
    });
  });

  it('dies when the subscription is deactivated', async () => {
    const { token, user } = await subscriber();
    await expectLinkEndsWith(token, async () => {
      const res = await t.request('PUT', `/api/admin/subscribers/${user.id}/manage-subscription`, {
        token: adminToken,
        body: { action: 'deactivate' },
      });
      expect(res.status, res.text).toBe(200);
    });
  });

  it('dies when the subscriber is deleted', async () => {
    const { token, user } = await subscriber();
    await expectLinkEndsWith(token, async () => {
      const res = await t.request('DELETE', `/api/admin/subscribers/${user.id}`, { token: adminToken });
      expect(res.status, res.text).toBe(200);
    });
  });

  it('dies when the agent is deactivated', async () => {
    const { agent, password } = await createAgentAs(t, adminToken);
    const login = await t.request('POST', '/api/auth/agent/login', {
      body: { email: agent.email, password },
      ip: freshIp(),
    });
    await expectLinkEndsWith(login.json.token as string, async () => {
      const res = await t.request('PUT', `/api/agents/${agent.id}`, { token: adminToken, body: { is_active: false } });
      expect(res.status, res.text).toBe(200);
    });
  });

  it('dies when the movie is deactivated', async () => {
    const { token } = await subscriber();
    const movie = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId] });
    await expectLinkEndsWith(
      token,
      async () => {
        const res = await t.request('PUT', `/api/admin/movies/${movie.movie.id}/toggle-active`, {
          token: adminToken,
          body: { is_active: false },
        });
        expect(res.status, res.text).toBe(200);
      },
      movie,
    );
  });

  it('gives Background Fetch links only to browsers that have it, as long as the file needs', async () => {
    const { token } = await subscriber();
    for (const agent of [SAFARI_IOS, FIREFOX]) {
      expectErrorEnvelope(
        await grant(token, k1.movie.id, { 'user-agent': agent }, 'background'),
        400,
        'bad_request',
        /cannot download in the background/,
      );
    }
    const res = await grant(token, k1.movie.id, { 'user-agent': CHROME_ANDROID }, 'background');
    expect(res.status, res.text).toBe(200);
    // A 10 kB file needs no more than an ordinary link; 2 GB at 0.5 Mbit/s, about nine and a half hours.
    expect(Date.parse(res.json.expiresAt) - t.clock.now().getTime()).toBe(3600 * 1000);
    expect(backgroundLinkSeconds(2_000_000_000, { foreground: 3600, cap: 86_400 })).toBe(33_800);
    expect(backgroundLinkSeconds(8 * 1024 ** 3, { foreground: 3600, cap: 86_400 })).toBe(86_400);
  });

  it('refuses /complete until /files delivered every byte, overlapping ranges counted once', async () => {
    const { token } = await subscriber();
    const { downloadId, downloadUrl } = await link(token, k1);
    expectErrorEnvelope(await complete(token, downloadId, 10_000), 409, 'conflict', /0 of 10000 bytes/);
    for (const range of ['bytes=0-3999', 'bytes=2000-5999', 'bytes=0-999', 'bytes=0-5999']) {
      expect((await fetchLink(t, downloadUrl, range)).status).toBe(206);
    }
    expectErrorEnvelope(await complete(token, downloadId, 10_000), 409, 'conflict', /6000 of 10000 bytes/);
    expect((await fetchLink(t, downloadUrl, 'bytes=8000-')).status).toBe(206);
    expectErrorEnvelope(await complete(token, downloadId), 409, 'conflict', /8000 of 10000 bytes/);
    expect((await fetchLink(t, downloadUrl, 'bytes=5000-8999')).bytes).toEqual(k1.bytes.subarray(5000, 9000));
    const done = await complete(token, downloadId);
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('completes when the last bytes are still being written by another replica', async () => {
    const { token } = await subscriber();
    const { downloadId, downloadUrl } = await link(token, k1);
    expect((await fetchLink(t, downloadUrl, 'bytes=0-8999')).status).toBe(206);
    // Replica B served the last 1,000 bytes; its write lands just after the client asked A to complete.
    const replicaB = new Deliveries({ database: t.deps.database, clock: t.clock, logger: t.deps.logger });
    setTimeout(() => replicaB.track(downloadId, 9000, 9999, k1.movie.s3_key).reached(10_000), 500);
    const done = await complete(token, downloadId, 10_000);
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('keeps English locked after a completion claimed without the bytes', async () => {
    const { token } = await subscriber();
    for (const movie of [k1, k2]) {
      const { downloadId } = await link(token, movie);
      expect((await complete(token, downloadId, movie.bytes.length)).status).toBe(409);
    }
    expectErrorEnvelope(await grant(token, english.movie.id), 403, 'download_locked');
    expect((await t.request('GET', '/api/users/me/kinayuganda-download-status', { token })).json).toMatchObject({
      hasDownloadedAllKinayuganda: false,
      completed: 0,
    });
  });

  it('stops giving fresh links to a download that receives nothing new', async () => {
    const { token } = await subscriber();
    const first = await link(token, k2);
    // New bytes are progress once; the same bytes again are not.
    expect((await fetchLink(t, first.downloadUrl, 'bytes=0-99')).status).toBe(206);
    for (let i = 0; i < MAX_LINKS_WITHOUT_PROGRESS; i++) {
      const again = await link(token, k2);
      expect(again.downloadId).toBe(first.downloadId);
      expect((await fetchLink(t, again.downloadUrl, 'bytes=0-99')).status).toBe(206);
    }
    expectErrorEnvelope(await grant(token, k2.movie.id), 409, 'conflict', TOO_MANY_LINKS);

    // New bytes reset the count: an honest download resuming hour after hour is never stopped.
    const other = await subscriber();
    let last = await link(other.token, k1);
    for (let i = 1; i < MAX_LINKS_WITHOUT_PROGRESS; i++) last = await link(other.token, k1);
    expect((await fetchLink(t, last.downloadUrl, 'bytes=0-99')).status).toBe(206);
    // The delivered bytes are written just after the response ends; a phone asks again only much later (its link
    // lapsed), so the test waits for the write as a phone would, instead of racing it (a CI run lost that race).
    await t.deps.deliveries.settled(last.downloadId);
    expect((await grant(other.token, k1.movie.id)).status).toBe(200);
  });
});
