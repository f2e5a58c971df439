import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloads } from '../../db/schema.ts';
import { type TestApp, createTestApp, loginAdmin, registerUser, testDatabases } from '../../../test/harness.ts';
import { type AddedMovie, addMovie, createPlan, fetchLink, subscribe } from '../../../test/library.ts';

/**
 * Security-bar C4/C5: concurrent grants decided by the database. PGlite runs them one at a time (it has one
 * connection), so the real proof is the Postgres run; both must give the same answers.
 */
describe.each(testDatabases)('concurrent download grants on %s', (kind) => {
  const rounds = kind === 'postgres' ? 50 : 3;
  /** 50 rounds of 20 racing requests each: a correctness sweep, so it gets room on a loaded 2-core machine. */
  const ROUNDS_TIMEOUT_MS = 180_000;
  const concurrency = 20;
  let t: TestApp;
  let adminToken: string;
  let planId: string;
  let kinayuganda: AddedMovie;
  let english: AddedMovie;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
    kinayuganda = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId] });
    english = await addMovie(t, adminToken, { category: 'English', planIds: [planId] });
  });
  afterAll(() => t.close());

  async function subscriber() {
    const registered = await registerUser(t);
    await subscribe(t, adminToken, registered.user.id, planId);
    return registered;
  }

  const rowsOf = (userId: string, movieId: string) =>
    t.deps.database.db
      .select()
      .from(downloads)
      .where(and(eq(downloads.userId, userId), eq(downloads.movieId, movieId), isNotNull(downloads.userId)));

  it(
    `${concurrency} simultaneous grants for one person and movie make exactly one download (${rounds} rounds)`,
    async () => {
      for (let round = 0; round < rounds; round++) {
        const { token, user } = await subscriber();
        const responses = await Promise.all(
          Array.from({ length: concurrency }, (_, i) =>
            i % 2 === 0
              ? t.request('POST', '/api/users/movies/generate-download-url', {
                  token,
                  body: { movieId: kinayuganda.movie.id },
                })
              : t.request('POST', '/api/users/downloads/start', { token, body: { movieId: kinayuganda.movie.id } }),
          ),
        );
        expect(responses.map((r) => r.status)).toEqual(Array(concurrency).fill(200));
        expect(new Set(responses.map((r) => r.json.downloadId)).size).toBe(1);
        const rows = await rowsOf(user.id, kinayuganda.movie.id);
        expect(rows).toHaveLength(1);
        // None of them was a resume: nothing had been received yet.
        expect(rows[0]!.resumedCount).toBe(0);
      }
    },
    ROUNDS_TIMEOUT_MS,
  );

  it(
    `English grants racing the last Kinayuganda completion never pass it (${rounds} rounds)`,
    async () => {
      for (let round = 0; round < rounds; round++) {
        const { token, user } = await subscriber();
        const size = kinayuganda.bytes.length;
        const granted = await t.request('POST', '/api/users/downloads/start', {
          token,
          body: { movieId: kinayuganda.movie.id },
        });
        const id = granted.json.downloadId as string;
        const link = await t.request('POST', '/api/users/movies/generate-download-url', {
          token,
          body: { movieId: kinayuganda.movie.id },
        });
        // All but the last byte: the download completes itself when that byte goes out (decision 0191).
        const url = link.json.downloadUrl as string;
        expect((await fetchLink(t, url, `bytes=0-${size - 2}`)).bytes).toEqual(kinayuganda.bytes.subarray(0, size - 1));
        // With the Kinayuganda movie outstanding, every English grant is refused and none leaves a row.
        const early = await Promise.all(
          Array.from({ length: concurrency }, () =>
            t.request('POST', '/api/users/downloads/start', { token, body: { movieId: english.movie.id } }),
          ),
        );
        expect(early.map((r) => r.status)).toEqual(Array(concurrency).fill(403));
        expect(await rowsOf(user.id, english.movie.id)).toHaveLength(0);

        // The last byte (the server's completion), /complete and English grants at once: a grant succeeds only if it
        // saw the completion committed.
        const [completion, ...racing] = await Promise.all([
          fetchLink(t, url, `bytes=${size - 1}-`).then(() =>
            t.request('PUT', `/api/users/downloads/${id}/complete`, { token, body: { downloadedBytes: size } }),
          ),
          ...Array.from({ length: concurrency }, () =>
            t.request('POST', '/api/users/downloads/start', { token, body: { movieId: english.movie.id } }),
          ),
        ]);
        expect(completion!.status).toBe(200);
        for (const r of racing) expect([200, 403]).toContain(r.status);
        const englishRows = await rowsOf(user.id, english.movie.id);
        expect(englishRows.length).toBe(racing.some((r) => r.status === 200) ? 1 : 0);
        const [kinayugandaRow] = await rowsOf(user.id, kinayuganda.movie.id);
        expect(kinayugandaRow!.status).toBe('completed');
      }
    },
    ROUNDS_TIMEOUT_MS,
  );
});
