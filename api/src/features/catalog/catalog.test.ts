import { randomUUID } from 'node:crypto';
import {
  AdminMovieList,
  AdminMovieResponse,
  MOVIE_TITLE_REQUIRED,
  PLAN_REQUIRED,
  PublicMovieList,
  UploadUrlResponse,
  UserMovieList,
  VJ_REQUIRED,
} from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { TINY_PNG, addMovie, createPlan, fakeMp4, subscribe } from '../../../test/library.ts';
import { movies } from '../../db/schema.ts';
import { INACTIVE_PLAN } from './admin-movies.ts';

describe.each(testDatabases)('movie library on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let planId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
  });
  afterAll(() => t.close());

  const uploadUrl = (body: Record<string, unknown>) =>
    t.request('POST', '/api/admin/movies/generate-upload-url', { token: adminToken, body });
  const createMovie = (body: Record<string, unknown>) =>
    t.request('POST', '/api/admin/movies', { token: adminToken, body });
  /** PUTs bytes to a signed upload link the way a browser does. */
  async function put(url: string, headers: Record<string, string>, bytes: Buffer) {
    const { pathname, search } = new URL(url);
    return t.app.request(`${pathname}${search}`, { method: 'PUT', headers, body: bytes });
  }
  async function upload(folder: 'movies' | 'thumbnails', fileType: string, bytes: Buffer) {
    const res = await uploadUrl({
      fileName: `file.${fileType.split('/')[1]}`,
      fileType,
      fileSize: bytes.length,
      folder,
    });
    expect(res.status, res.text).toBe(200);
    const link = UploadUrlResponse.parse(res.json);
    expect(link.multipart).toBeNull();
    const stored = await put(link.presignedUrl!, link.headers, bytes);
    expect(stored.status).toBe(200);
    return link.s3Key;
  }
  const validMovie = (overrides: Record<string, unknown>) => ({
    title: 'Kampala Nights',
    description: 'A love story by the lake.',
    vj: 'VJ Emmy',
    category: 'English',
    rating: 'pg',
    size: undefined,
    planIds: [planId],
    ...overrides,
  });

  it('gives each movie its running time as ffprobe read it (whole seconds), and null when it was never probed', async () => {
    const { movie } = await addMovie(t, adminToken, { title: 'Long Film', planIds: [planId] });
    const unprobed = await addMovie(t, adminToken, { title: 'Short Film', planIds: [planId] });
    await t.deps.database.db.update(movies).set({ durationSeconds: 5519.6 }).where(eq(movies.id, movie.id));
    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, planId);
    const detail = await t.request('GET', `/api/users/movies/${movie.id}`, { token });
    expect(detail.status, detail.text).toBe(200);
    expect((detail.json as { movie: { duration_seconds: number | null } }).movie.duration_seconds).toBe(5520);
    const listed = UserMovieList.parse((await t.request('GET', '/api/users/movies?search=Film', { token })).json);
    expect(listed.movies.find((m) => m.id === movie.id)?.duration_seconds).toBe(5520);
    expect(listed.movies.find((m) => m.id === unprobed.movie.id)?.duration_seconds).toBeNull();
  });

  describe('admin upload and save', () => {
    it('uploads through a signed link and saves the movie with the size storage measured', async () => {
      const bytes = fakeMp4(50_000);
      const movieS3Key = await upload('movies', 'video/mp4', bytes);
      expect(movieS3Key).toMatch(/^movies\/[0-9a-f-]{36}\.mp4$/);
      const thumbnailS3Key = await upload('thumbnails', 'image/png', TINY_PNG);
      const res = await createMovie(validMovie({ movieS3Key, thumbnailS3Key, size: bytes.length }));
      expect(res.status, res.text).toBe(201);
      const { id, movie } = AdminMovieResponse.parse(res.json);
      expect(movie).toMatchObject({
        id,
        title: 'Kampala Nights',
        category: 'English',
        vj: 'VJ Emmy',
        size: 50_000,
        s3_key: movieS3Key,
        is_active: true,
        plan_ids: [planId],
        download_count: 0,
      });
      // Thumbnails resolve to a URL clients use as is (the local public path here).
      expect(movie.thumbnail_url).toBe(`http://localhost/files/${thumbnailS3Key}`);
      const thumbnail = await t.app.request(`/files/${thumbnailS3Key}`);
      expect(thumbnail.status).toBe(200);
      expect(Buffer.from(await thumbnail.arrayBuffer())).toEqual(TINY_PNG);
    });

    it('applies the upload form rules on the server', async () => {
      const movieS3Key = await upload('movies', 'video/mp4', fakeMp4());
      expectErrorEnvelope(
        await createMovie(validMovie({ movieS3Key, title: '  ' })),
        400,
        'validation_error',
        `title: ${MOVIE_TITLE_REQUIRED}`,
      );
      expectErrorEnvelope(
        await createMovie(validMovie({ movieS3Key, vj: '' })),
        400,
        'validation_error',
        `vj: ${VJ_REQUIRED}`,
      );
      expectErrorEnvelope(
        await createMovie(validMovie({ movieS3Key, planIds: [] })),
        400,
        'validation_error',
        `planIds: ${PLAN_REQUIRED}`,
      );
      const inactive = await createPlan(t, adminToken, { is_active: false });
      expectErrorEnvelope(
        await createMovie(validMovie({ movieS3Key, planIds: [inactive] })),
        400,
        'validation_error',
        INACTIVE_PLAN,
      );
      expectErrorEnvelope(
        await createMovie(validMovie({ movieS3Key, planIds: [randomUUID()] })),
        400,
        'validation_error',
        INACTIVE_PLAN,
      );
      expectErrorEnvelope(await createMovie(validMovie({ movieS3Key, category: 'Comedy' })), 400, 'validation_error');
      expectErrorEnvelope(
        await createMovie(validMovie({ movieS3Key, size: 1 })),
        400,
        'bad_request',
        /not the 1 bytes expected/,
      );
      // Kinayuganda needs no VJ or description; category matched in any case.
      const kinayuganda = await createMovie({
        title: 'Omukwano',
        category: 'kinayuganda',
        rating: 'all',
        movieS3Key,
        planIds: [planId],
      });
      expect(kinayuganda.status, kinayuganda.text).toBe(201);
      expect(kinayuganda.json.movie).toMatchObject({ category: 'Kinayuganda', vj: 'N/A', description: null });
      // The same file cannot become a second movie.
      expectErrorEnvelope(await createMovie(validMovie({ movieS3Key })), 409, 'conflict');
    });

    it('refuses files that are missing or are not what their folder says', async () => {
      expectErrorEnvelope(
        await createMovie(validMovie({ movieS3Key: `movies/${randomUUID()}.mp4` })),
        400,
        'bad_request',
        /has not been uploaded/,
      );
      const notVideo = `movies/${randomUUID()}.mp4`;
      await t.deps.storage.put(notVideo, Buffer.from('<html>not a movie</html>'), 'video/mp4');
      expectErrorEnvelope(await createMovie(validMovie({ movieS3Key: notVideo })), 400, 'bad_request', /not a video/);
      const movieS3Key = await upload('movies', 'video/mp4', fakeMp4());
      const svg = `thumbnails/${randomUUID()}.png`;
      await t.deps.storage.put(svg, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png');
      expectErrorEnvelope(
        await createMovie(validMovie({ movieS3Key, thumbnailS3Key: svg })),
        400,
        'bad_request',
        /JPEG, PNG or WebP/,
      );
      for (const key of ['../../etc/passwd', 'thumbnails/x.mp4', `movies/${randomUUID()}.mp4/../x`]) {
        expectErrorEnvelope(await createMovie(validMovie({ movieS3Key: key })), 400, 'validation_error');
      }
    });

    it('limits upload links by folder, type and size', async () => {
      const ok = { fileName: 'film.mp4', fileType: 'video/mp4', fileSize: 1000, folder: 'movies' };
      expectErrorEnvelope(await uploadUrl({ ...ok, folder: 'secrets' }), 400, 'validation_error');
      expectErrorEnvelope(await uploadUrl({ ...ok, fileType: 'image/png' }), 415, 'unsupported_media_type');
      expectErrorEnvelope(
        await uploadUrl({ ...ok, folder: 'thumbnails', fileType: 'image/svg+xml' }),
        415,
        'unsupported_media_type',
      );
      expectErrorEnvelope(
        await uploadUrl({ ...ok, fileSize: 8 * 1024 ** 3 + 1 }),
        413,
        'payload_too_large',
        'Movies are limited to 8 GB.',
      );
      expectErrorEnvelope(
        await uploadUrl({ ...ok, folder: 'thumbnails', fileType: 'image/jpeg', fileSize: 5 * 1024 ** 2 + 1 }),
        413,
        'payload_too_large',
        'Thumbnails are limited to 5 MB.',
      );
      // The client's file name never becomes part of the key.
      const link = UploadUrlResponse.parse((await uploadUrl({ ...ok, fileName: '../../../evil.mp4' })).json);
      expect(link.s3Key).toMatch(/^movies\/[0-9a-f-]{36}\.mp4$/);
      expectErrorEnvelope(
        await t.request('POST', '/api/admin/movies/multipart/abort', {
          token: adminToken,
          body: { s3Key: link.s3Key, uploadId: 'x' },
        }),
        400,
        'bad_request',
      );
    });

    it('toggles, re-attaches plans and deletes, keeping download history readable', async () => {
      const otherPlan = await createPlan(t, adminToken);
      const { movie } = await addMovie(t, adminToken, {
        planIds: [planId],
        thumbnail: true,
        title: 'Deleted Later',
      });
      const off = await t.request('PUT', `/api/admin/movies/${movie.id}/toggle-active`, {
        token: adminToken,
        body: { is_active: false },
      });
      expect(off.json.movie.is_active).toBe(false);
      const on = await t.request('PUT', `/api/admin/movies/${movie.id}/toggle-active`, {
        token: adminToken,
        body: { is_active: true },
      });
      expect(on.json.movie.is_active).toBe(true);
      const attached = await t.request('POST', `/api/admin/movies/${movie.id}/attach-plans`, {
        token: adminToken,
        body: { planIds: [otherPlan, otherPlan] },
      });
      expect(attached.json.movie.plan_ids).toEqual([otherPlan]);
      expectErrorEnvelope(
        await t.request('POST', `/api/admin/movies/${movie.id}/attach-plans`, {
          token: adminToken,
          body: { planIds: [] },
        }),
        400,
        'validation_error',
        `planIds: ${PLAN_REQUIRED}`,
      );

      const { token, user } = await registerUser(t);
      await subscribe(t, adminToken, user.id, otherPlan);
      const granted = await t.request('POST', '/api/users/downloads/start', { token, body: { movieId: movie.id } });
      expect(granted.status, granted.text).toBe(200);

      const deleted = await t.request('DELETE', `/api/admin/movies/${movie.id}`, { token: adminToken });
      expect(deleted.json).toEqual({ message: '"Deleted Later" was deleted.' });
      expect(await t.deps.storage.head(movie.s3_key)).toBeNull();
      expect(await t.deps.storage.head(movie.thumbnail_url!.split('/files/')[1]!)).toBeNull();
      const list = AdminMovieList.parse((await t.request('GET', '/api/admin/movies', { token: adminToken })).json);
      expect(list.movies.map((m) => m.id)).not.toContain(movie.id);
      expectErrorEnvelope(
        await t.request('DELETE', `/api/admin/movies/${movie.id}`, { token: adminToken }),
        404,
        'not_found',
      );
      expectErrorEnvelope(await t.request('GET', `/api/users/movies/${movie.id}`, { token }), 404, 'not_found');
      const history = await t.request('GET', '/api/users/me/downloads', { token });
      expect(history.json.downloads.map((d: { movieTitle: string }) => d.movieTitle)).toEqual(['Deleted Later']);
    });
  });

  describe('browsing', () => {
    let t2: TestApp;
    let admin2: string;
    let plan: string;
    let otherPlan: string;
    const titles = {
      k: ['Omukwano Gwa Kampala', 'Ekisa 50% Off', 'Bakuli Ya Mama'],
      e: ['Lake Victoria Dreams', 'Night Runner'],
    };
    beforeAll(async () => {
      t2 = await createTestApp(kind);
      admin2 = await loginAdmin(t2);
      plan = await createPlan(t2, admin2);
      otherPlan = await createPlan(t2, admin2);
      for (const title of titles.k) {
        await addMovie(t2, admin2, { title, category: 'Kinayuganda', planIds: [plan], description: 'Ekitontome' });
        t2.clock.advance(1000);
      }
      for (const title of titles.e) {
        await addMovie(t2, admin2, {
          title,
          category: 'English',
          planIds: title === 'Night Runner' ? [otherPlan] : [plan],
          description: 'Translated by VJ Jingo, a lakeside story',
        });
        t2.clock.advance(1000);
      }
    });
    afterAll(() => t2.close());

    const list = async (token: string | undefined, query = '') => {
      const res = await t2.request('GET', `/api/users/movies${query}`, { token });
      expect(res.status, res.text).toBe(200);
      return UserMovieList.parse(res.json);
    };

    it('searches title and description case-insensitively, with % taken literally', async () => {
      const { token } = await registerUser(t2);
      expect((await list(token, '?search=KAMPALA')).movies.map((m) => m.title)).toEqual(['Omukwano Gwa Kampala']);
      expect((await list(token, '?search=lakeside')).movies.map((m) => m.title).sort()).toEqual(
        titles.e.slice().sort(),
      );
      expect((await list(token, '?search=50%25')).movies.map((m) => m.title)).toEqual(['Ekisa 50% Off']);
      expect((await list(token, '?search=%25')).movies.map((m) => m.title)).toEqual(['Ekisa 50% Off']);
      expect((await list(token, '?search=nothing-like-this')).movies).toEqual([]);
    });

    it('filters by category in any case and pages each category separately', async () => {
      const { token } = await registerUser(t2);
      const kinayuganda = await list(token, '?category=KINAYUGANDA');
      expect(kinayuganda.movies.every((m) => m.category === 'Kinayuganda')).toBe(true);
      expect(kinayuganda.totals).toEqual({ Kinayuganda: 3, English: 0 });
      const first = await list(token, '?pageSize=2');
      expect(first.movies.map((m) => m.title)).toEqual([
        'Night Runner',
        'Lake Victoria Dreams',
        'Bakuli Ya Mama',
        'Ekisa 50% Off',
      ]);
      expect(first).toMatchObject({ page: 1, pageSize: 2, totals: { Kinayuganda: 3, English: 2 }, hasMore: true });
      const second = await list(token, '?pageSize=2&page=2');
      expect(second.movies.map((m) => m.title)).toEqual(['Omukwano Gwa Kampala']);
      expect(second.hasMore).toBe(false);
      expectErrorEnvelope(
        await t2.request('GET', '/api/users/movies?pageSize=1000', { token }),
        400,
        'validation_error',
      );
      expectErrorEnvelope(
        await t2.request('GET', '/api/users/movies?category=horror', { token }),
        400,
        'validation_error',
      );
    });

    it('tells each caller what they may do with each movie', async () => {
      const guest = await registerUser(t2);
      const access = (l: UserMovieList) => Object.fromEntries(l.movies.map((m) => [m.title, m.access]));
      expect(Object.values(access(await list(guest.token)))).toEqual(Array(5).fill('subscription_required'));
      const member = await registerUser(t2);
      await subscribe(t2, admin2, member.user.id, plan);
      const memberView = await list(member.token);
      expect(memberView).toMatchObject({ subscribed: true, hasDownloadedAllKinayuganda: false });
      expect(access(memberView)).toEqual({
        'Omukwano Gwa Kampala': 'downloadable',
        'Ekisa 50% Off': 'downloadable',
        'Bakuli Ya Mama': 'downloadable',
        'Lake Victoria Dreams': 'locked',
        'Night Runner': 'not_in_plan',
      });
      const admin = await list(admin2);
      expect(admin.subscribed).toBe(true);
      expect(access(admin)['Night Runner']).toBe('locked');
      const one = await t2.request('GET', `/api/users/movies/${memberView.movies[0]!.id}`, { token: member.token });
      expect(one.json.movie).toMatchObject({ title: 'Night Runner', access: 'not_in_plan', download: null });
    });

    it('shows the public library to anyone, without file keys', async () => {
      const res = await t2.request('GET', '/api/users/public-movies?search=dreams');
      expect(res.status).toBe(200);
      const body = PublicMovieList.parse(res.json);
      expect(body.movies.map((m) => m.title)).toEqual(['Lake Victoria Dreams']);
      expect(res.json.movies[0]).not.toHaveProperty('s3_key');
    });
  });
});
