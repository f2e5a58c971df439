import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserMovieList } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import {
  type TestApp,
  type TestResponse,
  TestClock,
  createTestApp,
  freshDatabase,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { type AddedMovie, addMovie, createPlan, fetchLink, subscribe } from '../../../test/library.ts';

/**
 * The library's ETag/304 answers and the cached catalogue behind them, with two app instances on one database
 * and one storage folder: two replicas behind a load balancer. Whatever one of them changes, the other answers
 * with at once (docs/decisions/0065-cached-catalogue.md, 0066-library-etags.md).
 */
describe.each(testDatabases)('library revalidation across replicas on %s', (kind) => {
  let database: Database;
  let one: TestApp;
  let two: TestApp;
  let adminToken: string;
  let planId: string;
  let kinayuganda: AddedMovie;
  let english: AddedMovie;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    const clock = new TestClock();
    const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'filamu-replicas-')) };
    one = await createTestApp(kind, { database, clock, env, keepDatabaseOpen: true });
    two = await createTestApp(kind, { database, clock, env, keepDatabaseOpen: true });
    adminToken = await loginAdmin(one);
    planId = await createPlan(one, adminToken);
    kinayuganda = await addMovie(one, adminToken, { title: 'Omukwano', category: 'Kinayuganda', planIds: [planId] });
    clock.advance(1000);
    english = await addMovie(one, adminToken, { title: 'Night Runner', category: 'English', planIds: [planId] });
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.close();
  });

  const library = (t: TestApp, token: string, etag?: string) =>
    t.request('GET', '/api/users/movies', { token, headers: etag ? { 'if-none-match': etag } : {} });
  const etagOf = (res: TestResponse) => res.headers.get('etag')!;
  const titles = (res: TestResponse) => UserMovieList.parse(res.json).movies.map((m) => m.title);
  const accessOf = (res: TestResponse, title: string) =>
    UserMovieList.parse(res.json).movies.find((m) => m.title === title)?.access;

  async function subscriber() {
    const { token, user } = await registerUser(one);
    await subscribe(one, adminToken, user.id, planId);
    return { token, userId: user.id as string };
  }

  it('answers an unchanged library with 304 and no body, and is revalidated by the browser', async () => {
    const { token } = await subscriber();
    const first = await library(two, token);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect(etagOf(first)).toMatch(/^W\/".+"$/);
    expect(titles(first)).toEqual(['Night Runner', 'Omukwano']);

    const again = await library(two, token, etagOf(first));
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(etagOf(again)).toBe(etagOf(first));
    // Either replica gives the same answer the same tag, and a list of tags is understood.
    expect((await library(one, token, `W/"other", ${etagOf(first)}`)).status).toBe(304);
  });

  it('answers 200 with a new ETag on the other replica as soon as an admin changes a movie', async () => {
    const { token } = await subscriber();
    const before = await library(two, token);
    expect((await library(two, token, etagOf(before))).status).toBe(304);

    const hide = await one.request('PUT', `/api/admin/movies/${english.movie.id}/toggle-active`, {
      token: adminToken,
      body: { is_active: false },
    });
    expect(hide.status).toBe(200);
    const hidden = await library(two, token, etagOf(before));
    expect(hidden.status).toBe(200);
    expect(etagOf(hidden)).not.toBe(etagOf(before));
    expect(titles(hidden)).toEqual(['Omukwano']);
    expect((await two.request('GET', `/api/users/movies/${english.movie.id}`, { token })).status).toBe(404);
    expect((await two.request('GET', '/api/users/public-movies')).json.movies).toHaveLength(1);

    const show = await one.request('PUT', `/api/admin/movies/${english.movie.id}/toggle-active`, {
      token: adminToken,
      body: { is_active: true },
    });
    expect(show.status).toBe(200);
    const shown = await library(two, token, etagOf(hidden));
    expect(shown.status).toBe(200);
    expect(titles(shown)).toEqual(['Night Runner', 'Omukwano']);
  });

  it('sees a movie added on one replica on the other, and grants it there', async () => {
    const { token } = await subscriber();
    const before = await library(two, token);
    const added = await addMovie(one, adminToken, { title: 'Ekisa', category: 'Kinayuganda', planIds: [planId] });
    const after = await library(two, token, etagOf(before));
    expect(after.status).toBe(200);
    expect(titles(after)).toContain('Ekisa');
    const grant = await two.request('POST', '/api/users/movies/generate-download-url', {
      token,
      body: { movieId: added.movie.id },
    });
    expect(grant.status, grant.text).toBe(200);
    // Removed again on the first replica: the second, whose catalogue still had it, refuses the grant.
    const removed = await one.request('DELETE', `/api/admin/movies/${added.movie.id}`, { token: adminToken });
    expect(removed.status).toBe(200);
    const refused = await two.request('POST', '/api/users/movies/generate-download-url', {
      token,
      body: { movieId: added.movie.id },
    });
    expect(refused.status).toBe(404);
  });

  it("answers 200 with a new ETag when the caller's subscription changes", async () => {
    const { token, userId } = await subscriber();
    const subscribed = await library(two, token);
    expect(accessOf(subscribed, 'Omukwano')).toBe('downloadable');
    const ended = await one.request('PUT', `/api/admin/subscribers/${userId}/manage-subscription`, {
      token: adminToken,
      body: { action: 'deactivate' },
    });
    expect(ended.status, ended.text).toBe(200);
    const unsubscribed = await library(two, token, etagOf(subscribed));
    expect(unsubscribed.status).toBe(200);
    expect(etagOf(unsubscribed)).not.toBe(etagOf(subscribed));
    expect(accessOf(unsubscribed, 'Omukwano')).toBe('subscription_required');
  });

  it("answers 200 with a new ETag when the caller's downloads change, and 304 to everyone else", async () => {
    const { token } = await subscriber();
    const other = await subscriber();
    const fresh = await library(two, token);
    const othersView = await library(two, other.token);
    expect(accessOf(fresh, 'Night Runner')).toBe('locked');

    const grant = await one.request('POST', '/api/users/movies/generate-download-url', {
      token,
      body: { movieId: kinayuganda.movie.id },
    });
    expect(grant.status, grant.text).toBe(200);
    const started = await library(two, token, etagOf(fresh));
    expect(started.status).toBe(200);
    const summary = UserMovieList.parse(started.json).movies.find((m) => m.title === 'Omukwano')?.download;
    expect(summary).toMatchObject({ status: 'starting', downloadedBytes: 0 });

    const { downloadId, fileSize } = grant.json as { downloadId: string; fileSize: number };
    const progress = await one.request('PUT', `/api/users/downloads/${downloadId}/progress`, {
      token,
      body: { downloadedBytes: 1024, totalBytes: fileSize },
    });
    expect(progress.status, progress.text).toBe(200);
    const moving = await library(two, token, etagOf(started));
    expect(moving.status).toBe(200);
    expect(UserMovieList.parse(moving.json).movies.find((m) => m.title === 'Omukwano')?.download).toMatchObject({
      status: 'downloading',
      downloadedBytes: 1024,
    });

    await fetchLink(one, grant.json.downloadUrl as string);
    const complete = await one.request('PUT', `/api/users/downloads/${downloadId}/complete`, {
      token,
      body: { downloadedBytes: fileSize },
    });
    expect(complete.status, complete.text).toBe(200);
    const done = await library(two, token, etagOf(moving));
    expect(done.status).toBe(200);
    expect(accessOf(done, 'Omukwano')).toBe('downloaded');
    expect(accessOf(done, 'Night Runner')).toBe('downloadable');
    expect(UserMovieList.parse(done.json).hasDownloadedAllKinayuganda).toBe(true);

    // Someone else's downloads are not part of the other subscriber's answer.
    expect((await library(two, other.token, etagOf(othersView))).status).toBe(304);
    // Nor is one person's tag any use to another whose library differs.
    expect((await library(two, other.token, etagOf(done))).status).toBe(200);
  });

  it('keeps no-store on every other API answer, errors included', async () => {
    const { token } = await subscriber();
    const profile = await two.request('GET', '/api/auth/profile', { token });
    expect(profile.headers.get('cache-control')).toBe('no-store');
    const unauthenticated = await two.request('GET', '/api/users/movies');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('cache-control')).toBe('no-store');
    expect(unauthenticated.headers.get('etag')).toBeNull();
  });
});
