import { randomUUID } from 'node:crypto';
import {
  AdminMovieResponse,
  CERTIFICATE_DATE_INVALID,
  EDIT_NOTHING,
  MOVIE_TITLE_REQUIRED,
  RATING_REQUIRED,
  UserMovieList,
  VJ_REQUIRED,
} from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  type TestResponse,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { TINY_PNG, addMovie, createPlan, fakeMp4, fetchLink, subscribe } from '../../../test/library.ts';
import { movies } from '../../db/schema.ts';
import { INACTIVE_PLAN } from './admin-movies.ts';

/** Ratings on upload and edit, and the movie edit (decisions 0166, 0167). */
describe.each(testDatabases)('movie edit and ratings on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let planId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
  });
  afterAll(() => t.close());

  const patch = (id: string, body: Record<string, unknown>) =>
    t.request('PATCH', `/api/admin/movies/${id}`, { token: adminToken, body });
  const library = (token: string, query = '', etag?: string) =>
    t.request('GET', `/api/users/movies${query}`, { token, headers: etag ? { 'if-none-match': etag } : {} });
  const inLibrary = (res: TestResponse, id: string) => UserMovieList.parse(res.json).movies.find((m) => m.id === id);

  async function subscriber() {
    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, planId);
    return token;
  }

  async function download(token: string, movieId: string) {
    const grant = await t.request('POST', '/api/users/movies/generate-download-url', { token, body: { movieId } });
    expect(grant.status, grant.text).toBe(200);
    const { downloadId, fileSize, downloadUrl } = grant.json as {
      downloadId: string;
      fileSize: number;
      downloadUrl: string;
    };
    await fetchLink(t, downloadUrl);
    const done = await t.request('PUT', `/api/users/downloads/${downloadId}/complete`, {
      token,
      body: { downloadedBytes: fileSize },
    });
    expect(done.status, done.text).toBe(200);
  }

  async function storedMovieKey() {
    const key = `movies/${randomUUID()}.mp4`;
    await t.deps.storage.put(key, fakeMp4(), 'video/mp4');
    return key;
  }

  it('requires a known rating on upload and keeps the certificate', async () => {
    const base = { title: 'Ekyama', category: 'Kinayuganda', planIds: [planId] };
    const post = (body: Record<string, unknown>) => t.request('POST', '/api/admin/movies', { token: adminToken, body });
    expectErrorEnvelope(await post({ ...base, movieS3Key: await storedMovieKey() }), 400, 'validation_error');
    const missing = await post({ ...base, movieS3Key: await storedMovieKey() });
    expect(missing.json.error.message).toContain(RATING_REQUIRED);
    expectErrorEnvelope(
      await post({ ...base, rating: 'R', movieS3Key: await storedMovieKey() }),
      400,
      'validation_error',
    );
    for (const certificateDate of ['2025-02-30', '24-01-01', '2999-01-01']) {
      const res = await post({ ...base, rating: '13', certificateDate, movieS3Key: await storedMovieKey() });
      expectErrorEnvelope(res, 400, 'validation_error');
      expect(res.json.error.message).toContain(CERTIFICATE_DATE_INVALID);
    }
    const tooLong = await post({
      ...base,
      rating: '13',
      certificateNumber: 'x'.repeat(61),
      movieS3Key: await storedMovieKey(),
    });
    expectErrorEnvelope(tooLong, 400, 'validation_error');

    const saved = await post({
      ...base,
      rating: '13',
      certificateNumber: ' MC/2025/0147 ',
      certificateDate: '2025-03-04',
      movieS3Key: await storedMovieKey(),
    });
    expect(saved.status, saved.text).toBe(201);
    const { movie } = AdminMovieResponse.parse(saved.json);
    expect(movie).toMatchObject({
      rating: '13',
      rating_confirmed: true,
      certificate_number: 'MC/2025/0147',
      certificate_date: '2025-03-04',
    });
    const token = await subscriber();
    expect(inLibrary(await library(token), movie.id)).toMatchObject({
      rating: '13',
      certificate_number: 'MC/2025/0147',
    });
  });

  it('filters the library by rating', async () => {
    const adult = await addMovie(t, adminToken, { title: 'Night Shift', rating: '18', planIds: [planId] });
    const family = await addMovie(t, adminToken, { title: 'Sunday Lunch', rating: 'all', planIds: [planId] });
    const token = await subscriber();
    const only18 = UserMovieList.parse((await library(token, '?rating=18')).json).movies;
    expect(only18.map((m) => m.id)).toContain(adult.movie.id);
    expect(only18.map((m) => m.id)).not.toContain(family.movie.id);
    expect(only18.every((m) => m.rating === '18')).toBe(true);
    const publicAll = await t.request('GET', '/api/users/public-movies?rating=all');
    expect((publicAll.json.movies as { id: string; rating: string }[]).every((m) => m.rating === 'all')).toBe(true);
    expectErrorEnvelope(await library(token, '?rating=21'), 400, 'validation_error');
  });

  it('edits every field in one save, and the library follows at once (a new ETag, not a 304)', async () => {
    const other = await createPlan(t, adminToken);
    const { movie } = await addMovie(t, adminToken, {
      title: 'Kampla Nigts',
      category: 'Kinayuganda',
      planIds: [planId],
    });
    const token = await subscriber();
    const before = await library(token);
    expect((await library(token, '', before.headers.get('etag')!)).status).toBe(304);

    const thumbnailS3Key = `thumbnails/${randomUUID()}.png`;
    await t.deps.storage.put(thumbnailS3Key, TINY_PNG, 'image/png');
    const res = await patch(movie.id, {
      title: ' Kampala Nights ',
      description: 'A love story by the lake.',
      vj: 'VJ Emmy',
      category: 'english',
      rating: 'pg',
      certificateNumber: 'MC-88',
      certificateDate: '2024-12-01',
      thumbnailS3Key,
      planIds: [planId, other, planId],
    });
    expect(res.status, res.text).toBe(200);
    const edited = AdminMovieResponse.parse(res.json).movie;
    expect(edited).toMatchObject({
      title: 'Kampala Nights',
      description: 'A love story by the lake.',
      vj: 'VJ Emmy',
      category: 'English',
      rating: 'pg',
      rating_confirmed: true,
      certificate_number: 'MC-88',
      certificate_date: '2024-12-01',
      s3_key: movie.s3_key,
      size: movie.size,
    });
    expect(edited.plan_ids.sort()).toEqual([planId, other].sort());
    expect(edited.thumbnail_url).toContain(thumbnailS3Key);

    const after = await library(token, '', before.headers.get('etag')!);
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(inLibrary(after, movie.id)).toMatchObject({ title: 'Kampala Nights', vj: 'VJ Emmy', rating: 'pg' });
    expect(inLibrary(after, movie.id)!.thumbnail_url).toContain(thumbnailS3Key);

    // Clearing optional fields, and leaving the movie in no plan (allowed: the console says so).
    const cleared = await patch(movie.id, {
      description: null,
      certificateNumber: '',
      certificateDate: null,
      planIds: [],
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json.movie).toMatchObject({
      description: null,
      certificate_number: null,
      certificate_date: null,
      plan_ids: [],
    });
    expect(inLibrary(await library(token), movie.id)!.access).toBe('not_in_plan');
  });

  it('refuses a bad edit whole, changing nothing', async () => {
    const { movie } = await addMovie(t, adminToken, { title: 'Omukwano', category: 'English', planIds: [planId] });
    const unchanged = async () => {
      const [row] = await t.deps.database.db.select().from(movies).where(eq(movies.id, movie.id));
      expect(row).toMatchObject({ title: 'Omukwano', category: 'English', vj: 'VJ Junior', rating: 'all' });
    };
    expectErrorEnvelope(await patch(movie.id, {}), 400, 'validation_error', EDIT_NOTHING);
    expectErrorEnvelope(await patch(movie.id, { title: '  ', rating: '18' }), 400, 'validation_error');
    expect((await patch(movie.id, { title: '' })).json.error.message).toContain(MOVIE_TITLE_REQUIRED);
    expectErrorEnvelope(await patch(movie.id, { title: 'x'.repeat(201) }), 400, 'validation_error');
    expectErrorEnvelope(await patch(movie.id, { rating: 'X', title: 'Fine' }), 400, 'validation_error');
    expectErrorEnvelope(await patch(movie.id, { category: 'Comedy' }), 400, 'validation_error');
    // An English movie keeps needing its VJ, whichever field the edit touches.
    expectErrorEnvelope(await patch(movie.id, { vj: 'N/A', title: 'New' }), 400, 'validation_error', VJ_REQUIRED);
    expectErrorEnvelope(await patch(movie.id, { thumbnailS3Key: '../etc/passwd' }), 400, 'validation_error');
    const missing = `thumbnails/${randomUUID()}.png`;
    expectErrorEnvelope(await patch(movie.id, { thumbnailS3Key: missing, title: 'New' }), 400, 'bad_request');
    const notPicture = `thumbnails/${randomUUID()}.png`;
    await t.deps.storage.put(notPicture, fakeMp4(), 'image/png');
    expectErrorEnvelope(await patch(movie.id, { thumbnailS3Key: notPicture }), 400, 'bad_request', /JPEG, PNG or WebP/);
    const hidden = await createPlan(t, adminToken, { is_active: false });
    expectErrorEnvelope(
      await patch(movie.id, { planIds: [hidden], title: 'New' }),
      400,
      'validation_error',
      INACTIVE_PLAN,
    );
    expectErrorEnvelope(
      await patch(movie.id, { certificateDate: '2999-01-01', title: 'New' }),
      400,
      'validation_error',
    );
    await unchanged();
    expectErrorEnvelope(await patch(randomUUID(), { title: 'New' }), 404, 'not_found');
    expectErrorEnvelope(
      await t.request('PATCH', `/api/admin/movies/${movie.id}`, { token: await subscriber(), body: { title: 'New' } }),
      403,
      'forbidden',
    );
  });

  it('asks to confirm the default rating of movies saved before ratings, and one save confirms it', async () => {
    const { movie } = await addMovie(t, adminToken, { title: 'Old Movie', planIds: [planId] });
    // As migration 0017 left the movies it found.
    await t.deps.database.db
      .update(movies)
      .set({ rating: '18', ratingConfirmed: false })
      .where(eq(movies.id, movie.id));
    const listed = await t.request('GET', '/api/admin/movies', { token: adminToken });
    expect((listed.json.movies as { id: string }[]).find((m) => m.id === movie.id)).toMatchObject({
      rating: '18',
      rating_confirmed: false,
    });
    const confirmed = await patch(movie.id, { rating: '18' });
    expect(confirmed.json.movie).toMatchObject({ rating: '18', rating_confirmed: true });
  });

  it('a category change counts for the Kinayuganda-first rule from the next answer on; whoever unlocked English keeps it', async () => {
    const plan = await createPlan(t, adminToken);
    const first = await addMovie(t, adminToken, { title: 'Ekisa', category: 'Kinayuganda', planIds: [plan] });
    const second = await addMovie(t, adminToken, { title: 'Omukwano', category: 'Kinayuganda', planIds: [plan] });
    const english = await addMovie(t, adminToken, { title: 'Night Runner', category: 'English', planIds: [plan] });
    const moved = await addMovie(t, adminToken, { title: 'Lake Story', category: 'English', planIds: [plan] });
    const done = await registerUser(t);
    const midway = await registerUser(t);
    await subscribe(t, adminToken, done.user.id, plan);
    await subscribe(t, adminToken, midway.user.id, plan);
    await download(done.token, first.movie.id);
    await download(done.token, second.movie.id);
    await download(midway.token, first.movie.id);
    expect(inLibrary(await library(done.token), english.movie.id)!.access).toBe('downloadable');
    expect(inLibrary(await library(midway.token), english.movie.id)!.access).toBe('locked');

    // An English movie becomes Kinayuganda: someone mid-way must download it too before English...
    expect((await patch(moved.movie.id, { category: 'Kinayuganda' })).status).toBe(200);
    await download(midway.token, second.movie.id);
    const stillLocked = await library(midway.token);
    expect(inLibrary(stillLocked, english.movie.id)!.access).toBe('locked');
    expect(UserMovieList.parse(stillLocked.json).hasDownloadedAllKinayuganda).toBe(false);
    const refused = await t.request('POST', '/api/users/movies/generate-download-url', {
      token: midway.token,
      body: { movieId: english.movie.id },
    });
    expect(refused.status).toBe(403);
    // ...while whoever had already unlocked English keeps it for their paid period (decision 0177).
    const kept = await library(done.token);
    expect(inLibrary(kept, english.movie.id)!.access).toBe('downloadable');
    expect(UserMovieList.parse(kept.json).hasDownloadedAllKinayuganda).toBe(true);

    // Moved back, nothing is outstanding again; a downloaded movie keeps counting in its new category.
    expect((await patch(moved.movie.id, { category: 'English' })).status).toBe(200);
    expect(inLibrary(await library(midway.token), english.movie.id)!.access).toBe('downloadable');
    expect((await patch(english.movie.id, { category: 'Kinayuganda' })).status).toBe(200);
    await download(midway.token, english.movie.id);
    const counted = UserMovieList.parse((await library(midway.token)).json);
    expect(counted.hasDownloadedAllKinayuganda).toBe(true);
    expect(counted.movies.find((m) => m.id === moved.movie.id)!.access).toBe('downloadable');
  });
});
