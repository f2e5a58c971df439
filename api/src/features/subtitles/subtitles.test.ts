import { AdminMovieResponse, SUBTITLE_MAX_BYTES, UserMovieResponse } from '@filamu/shared';
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
import { addMovie, createPlan, subscribe } from '../../../test/library.ts';
import { movieSubtitles, movies } from '../../db/schema.ts';

const SRT = '1\r\n00:00:01,000 --> 00:00:04,000\r\nOli otya?\r\n\r\n2\r\n00:00:05,000 --> 00:00:07,500\r\nBulungi\r\n';
const VTT = 'WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nHello there\n';

/** Subtitles: attached by an admin, converted and checked, listed with the movie, read by who may have it. */
describe.each(testDatabases)('movie subtitles on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let planId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
  });
  afterAll(() => t.close());

  const put = (movieId: string, language: string, body: unknown, token = adminToken) =>
    t.request('PUT', `/api/admin/movies/${movieId}/subtitles/${language}`, { token, body });
  const read = (movieId: string, language: string, token: string) =>
    t.request('GET', `/api/users/movies/${movieId}/subtitles/${language}`, { token });
  const rowsOf = (movieId: string) =>
    t.deps.database.db.select().from(movieSubtitles).where(eq(movieSubtitles.movieId, movieId));

  async function subscriber() {
    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, planId);
    return token;
  }

  it('converts SRT to WebVTT, lists it on the movie and serves it as text/vtt', async () => {
    const { movie } = await addMovie(t, adminToken, { planIds: [planId] });
    const saved = await put(movie.id, 'LG', { text: SRT });
    expect(saved.status, saved.text).toBe(200);
    const vtt = 'WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nOli otya?\n\n00:00:05.000 --> 00:00:07.500\nBulungi\n';
    expect(AdminMovieResponse.parse(saved.json).movie.subtitles).toEqual([
      { language: 'lg', label: 'Luganda', bytes: Buffer.byteLength(vtt) },
    ]);

    const token = await subscriber();
    const file = await read(movie.id, 'lg', token);
    expect(file.status, file.text).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(file.text).toBe(vtt);

    const view = await t.request('GET', `/api/users/movies/${movie.id}`, { token });
    expect(UserMovieResponse.parse(view.json).movie.subtitles).toEqual([
      { language: 'lg', label: 'Luganda', bytes: Buffer.byteLength(vtt) },
    ]);
    const listed = await t.request('GET', '/api/admin/movies', { token: adminToken });
    expect(
      (listed.json.movies as { id: string; subtitles: unknown[] }[]).find((m) => m.id === movie.id)?.subtitles,
    ).toHaveLength(1);
  });

  it('keeps WebVTT, takes a label, and replacing a language leaves one row', async () => {
    const { movie } = await addMovie(t, adminToken, { planIds: [planId] });
    expect((await put(movie.id, 'en', { text: SRT })).status).toBe(200);
    const replaced = await put(movie.id, 'en', { text: VTT, label: 'English (SDH)' });
    expect(replaced.status, replaced.text).toBe(200);
    expect(AdminMovieResponse.parse(replaced.json).movie.subtitles).toEqual([
      { language: 'en', label: 'English (SDH)', bytes: Buffer.byteLength(VTT) },
    ]);
    expect((await read(movie.id, 'en', adminToken)).text).toBe(VTT);

    const together = await Promise.all(
      Array.from({ length: 5 }, (_, i) => put(movie.id, 'sw', { text: VTT.replace('Hello there', `Habari ${i}`) })),
    );
    expect(together.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const rows = await rowsOf(movie.id);
    expect(rows.map((r) => r.language).sort()).toEqual(['en', 'sw']);
  });

  it('refuses garbage with the envelope and writes nothing', async () => {
    const { movie } = await addMovie(t, adminToken, { planIds: [planId] });
    const cases: [unknown, number, string, RegExp][] = [
      [{ text: '\u0001\u0002\u0003ftypisom' }, 400, 'invalid_subtitles', /binary/],
      [{ text: '1\n00:00:01,000 --> 00:00:02,000\nNgend\uFFFD\n' }, 400, 'invalid_subtitles', /UTF-8/],
      [{ text: '' }, 400, 'invalid_subtitles', /no cues/],
      [{ text: 'Dear admin,\nthis is a letter.\n' }, 400, 'invalid_subtitles', /no cues/],
      [{ text: '1\n00:00:01,000 --> 00:0:02,000\nHi\n' }, 400, 'invalid_subtitles', /Line 2/],
      [{ text: '1\n00:00:09,000 --> 00:00:02,000\nHi\n' }, 400, 'invalid_subtitles', /ends/],
      [
        { text: `1\n00:00:01,000 --> 00:00:02,000\n${'x'.repeat(SUBTITLE_MAX_BYTES)}\n` },
        413,
        'payload_too_large',
        /512 KB/,
      ],
      [{ text: 'a\u0000b' }, 400, 'validation_error', /NUL/],
      [{ label: 'English' }, 400, 'validation_error', /subtitle file/],
    ];
    for (const [body, status, code, message] of cases) {
      expectErrorEnvelope(await put(movie.id, 'en', body), status, code, message);
    }
    const garbage = await put(movie.id, 'en', { text: '' });
    expect(garbage.json.error.issues).toEqual([{ path: 'text', message: garbage.json.error.message }]);
    expect(await rowsOf(movie.id)).toEqual([]);

    expectErrorEnvelope(await put(movie.id, 'english!', { text: VTT }), 400, 'validation_error');
    expectErrorEnvelope(await put(movie.id, 'x', { text: VTT }), 400, 'validation_error');
    const user = await subscriber();
    expectErrorEnvelope(await put(movie.id, 'en', { text: VTT }, user), 403, 'forbidden');
    expectErrorEnvelope(await put('00000000-0000-4000-8000-000000000000', 'en', { text: VTT }), 404, 'not_found');
    expect(await rowsOf(movie.id)).toEqual([]);
  });

  it('serves the file to whoever may download the movie, and no one else', async () => {
    const otherPlan = await createPlan(t, adminToken);
    const { movie } = await addMovie(t, adminToken, { planIds: [planId] });
    expect((await put(movie.id, 'sw', { text: VTT })).status).toBe(200);

    expect((await read(movie.id, 'sw', await subscriber())).status).toBe(200);
    expect((await read(movie.id, 'sw', adminToken)).status).toBe(200);

    const { token: unsubscribed } = await registerUser(t);
    expectErrorEnvelope(await read(movie.id, 'sw', unsubscribed), 403, 'forbidden');
    const { token: elsewhere, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, otherPlan);
    expectErrorEnvelope(await read(movie.id, 'sw', elsewhere), 403, 'forbidden');
    expectErrorEnvelope(await t.request('GET', `/api/users/movies/${movie.id}/subtitles/sw`), 401, 'unauthenticated');

    const holder = await subscriber();
    const grant = await t.request('POST', '/api/users/movies/generate-download-url', {
      token: holder,
      body: { movieId: movie.id },
    });
    expect(grant.status, grant.text).toBe(200);
    // Once they hold a download, hiding the movie does not take its subtitles from them; others lose them.
    await t.request('PUT', `/api/admin/movies/${movie.id}/toggle-active`, {
      token: adminToken,
      body: { is_active: false },
    });
    expect((await read(movie.id, 'sw', holder)).status).toBe(200);
    expectErrorEnvelope(await read(movie.id, 'sw', await subscriber()), 403, 'forbidden');

    expectErrorEnvelope(await read(movie.id, 'lg', holder), 404, 'not_found');
  });

  it('moves the library ETag when subtitles change', async () => {
    const { movie } = await addMovie(t, adminToken, { planIds: [planId] });
    const token = await subscriber();
    const before = await t.request('GET', `/api/users/movies/${movie.id}`, { token });
    const etag = before.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect(
      (await t.request('GET', `/api/users/movies/${movie.id}`, { token, headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
    expect((await put(movie.id, 'en', { text: VTT })).status).toBe(200);
    const after = await t.request('GET', `/api/users/movies/${movie.id}`, {
      token,
      headers: { 'if-none-match': etag },
    });
    expect(after.status).toBe(200);
    expect(UserMovieResponse.parse(after.json).movie.subtitles.map((s) => s.language)).toEqual(['en']);
  });

  it('removes one language, and every language goes with the movie', async () => {
    const { movie } = await addMovie(t, adminToken, { planIds: [planId] });
    await put(movie.id, 'en', { text: VTT });
    await put(movie.id, 'lg', { text: SRT });
    const removed = await t.request('DELETE', `/api/admin/movies/${movie.id}/subtitles/en`, { token: adminToken });
    expect(removed.status, removed.text).toBe(200);
    expect(AdminMovieResponse.parse(removed.json).movie.subtitles.map((s) => s.language)).toEqual(['lg']);
    expectErrorEnvelope(
      await t.request('DELETE', `/api/admin/movies/${movie.id}/subtitles/en`, { token: adminToken }),
      404,
      'not_found',
    );

    expect((await t.request('DELETE', `/api/admin/movies/${movie.id}`, { token: adminToken })).status).toBe(200);
    expect(await rowsOf(movie.id)).toEqual([]);
    expectErrorEnvelope(await put(movie.id, 'en', { text: VTT }), 404, 'not_found');

    // The foreign key cascades too, for a movie row that is really removed.
    const { movie: other } = await addMovie(t, adminToken, { planIds: [planId] });
    await put(other.id, 'sw', { text: VTT });
    await t.deps.database.db.delete(movies).where(eq(movies.id, other.id));
    expect(await rowsOf(other.id)).toEqual([]);
  });
});
