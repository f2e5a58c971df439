import { KINAYUGANDA_FIRST, UserMovieList } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
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

const DAY_MS = 86_400_000;

/** Decision 0177: English, once unlocked in a paid period, stays unlocked when a Kinayuganda movie is added later. */
describe.each(testDatabases)('English unlocked for the rest of the paid period on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let plan: string;
  let english: AddedMovie;
  let englishTwo: AddedMovie;
  let kinayuganda: AddedMovie[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    plan = await createPlan(t, adminToken);
    kinayuganda = [
      await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [plan] }),
      await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [plan] }),
    ];
    english = await addMovie(t, adminToken, { category: 'English', planIds: [plan] });
    englishTwo = await addMovie(t, adminToken, { category: 'English', planIds: [plan] });
  });
  afterAll(() => t.close());

  const grant = (token: string, movieId: string) =>
    t.request('POST', '/api/users/movies/generate-download-url', { token, body: { movieId } });
  const status = async (token: string) =>
    (await t.request('GET', '/api/users/me/kinayuganda-download-status', { token })).json;
  const library = async (token: string) =>
    UserMovieList.parse((await t.request('GET', '/api/users/movies?category=English', { token })).json);

  async function downloadFully(token: string, added: AddedMovie) {
    const granted = await grant(token, added.movie.id);
    expect(granted.status, granted.text).toBe(200);
    const id = granted.json.downloadId as string;
    await fetchLink(t, granted.json.downloadUrl as string);
    const total = added.bytes.length;
    await t.request('PUT', `/api/users/downloads/${id}/progress`, {
      token,
      body: { downloadedBytes: total, totalBytes: total, progress: 100 },
    });
    const done = await t.request('PUT', `/api/users/downloads/${id}/complete`, { token, body: {} });
    expect(done.status, done.text).toBe(200);
  }

  async function subscriberWithEnglish() {
    const registered = await registerUser(t);
    await subscribe(t, adminToken, registered.user.id, plan);
    for (const movie of kinayuganda) await downloadFully(registered.token, movie);
    return registered;
  }

  it('records the moment the last Kinayuganda movie completed, and a new upload does not lock English again', async () => {
    const { token, user } = await subscriberWithEnglish();
    const [row] = await t.deps.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.englishUnlockedAt).toEqual(t.clock.now());

    const added = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [plan] });
    kinayuganda.push(added);
    expect(await status(token)).toEqual({
      hasDownloadedAllKinayuganda: true,
      englishKept: true,
      required: kinayuganda.length,
      completed: kinayuganda.length - 1,
      hiddenByParentalPin: 0,
    });
    const list = await library(token);
    expect(list.hasDownloadedAllKinayuganda).toBe(true);
    expect(list.movies.find((m) => m.id === english.movie.id)?.access).toBe('downloadable');
    const granted = await grant(token, english.movie.id);
    expect(granted.status, granted.text).toBe(200);
  });

  it('still locks English for someone who had not unlocked it before the upload', async () => {
    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, plan);
    expectErrorEnvelope(await grant(token, english.movie.id), 403, 'download_locked', KINAYUGANDA_FIRST);
    expect(await status(token)).toMatchObject({ hasDownloadedAllKinayuganda: false, englishKept: false });
  });

  it('starts the rule afresh with a new paid period: the movies added since must be downloaded first', async () => {
    const { token, user } = await subscriberWithEnglish();
    await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [plan] }).then((m) => kinayuganda.push(m));
    expect((await grant(token, englishTwo.movie.id)).status).toBe(200);

    t.clock.advance(DAY_MS);
    adminToken = await loginAdmin(t); // the admin's session did not outlive the day
    await subscribe(t, adminToken, user.id, plan); // a renewal: a new period begins now
    expectErrorEnvelope(await grant(token, english.movie.id), 403, 'download_locked', KINAYUGANDA_FIRST);
    expect(await status(token)).toMatchObject({ hasDownloadedAllKinayuganda: false, englishKept: false });
  });

  it('keeps the rule as it was for staff: an agent is locked again by a new upload', async () => {
    const { agent, password } = await createAgentAs(t, adminToken);
    const login = await t.request('POST', '/api/auth/agent/login', {
      body: { email: agent.email, password },
      ip: freshIp(),
    });
    const agentToken = login.json.token as string;
    for (const movie of kinayuganda) await downloadFully(agentToken, movie);
    expect((await grant(agentToken, english.movie.id)).status).toBe(200);
    await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [plan] }).then((m) => kinayuganda.push(m));
    expectErrorEnvelope(await grant(agentToken, englishTwo.movie.id), 403, 'download_locked');
  });
});
