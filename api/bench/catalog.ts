import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { moviePlans, movies } from '../src/db/schema.ts';
import { type DatabaseKind, createTestApp, loginAdmin, registerUser } from '../test/harness.ts';
import { createPlan, fakeMp4, subscribe } from '../test/library.ts';
import { describeLoad, load, type LoadFigures } from './measure.ts';

const MOVIES = 5000;
const SUBSCRIBERS = 50;
const CONCURRENCY = 20;

/**
 * The library listing and the grant endpoint with 5,000 movies (half Kinayuganda, half English, all in
 * one plan) and 50 subscribers, in-process through the real app.
 */
export async function benchCatalog(kind: DatabaseKind): Promise<void> {
  const t = await createTestApp(kind);
  const adminToken = await loginAdmin(t);
  const planId = await createPlan(t, adminToken);
  const db = t.deps.database.db;
  // The file every movie points at: grants ask storage whether it is there.
  const s3Key = (i: number) => `movies/${randomUUID().slice(0, 8)}-0000-4000-8000-${String(i).padStart(12, '0')}.mp4`;
  const keys: string[] = [];
  for (let start = 0; start < MOVIES; start += 500) {
    const batch = Array.from({ length: 500 }, (_, j) => {
      const i = start + j;
      const key = s3Key(i);
      keys.push(key);
      return {
        title: `${i % 2 === 0 ? 'Omukwano' : 'Night Runner'} ${i}`,
        description: i % 7 === 0 ? 'A story by the lake, translated by VJ Junior' : 'Kampala drama',
        category: i % 2 === 0 ? ('Kinayuganda' as const) : ('English' as const),
        vj: 'VJ Junior',
        s3Key: key,
        sizeBytes: 4096,
        contentType: 'video/mp4',
        createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      };
    });
    const inserted = await db.insert(movies).values(batch).returning({ id: movies.id });
    await db.insert(moviePlans).values(inserted.map((m) => ({ movieId: m.id, planId })));
  }
  // A live database has statistics for its tables (autovacuum analyzes after bulk inserts); give the planner them.
  await db.execute(sql`analyze movies, movie_plans`);
  const all = await db.select({ id: movies.id, key: movies.s3Key, category: movies.category }).from(movies);
  const grantable = all.filter((m) => m.category === 'Kinayuganda');
  const file = fakeMp4(4096);
  for (const m of grantable.slice(0, 200)) await t.deps.storage.put(m.key, file, 'video/mp4');

  const tokens: string[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const { token, user } = await registerUser(t);
    await subscribe(t, adminToken, user.id, planId);
    tokens.push(token);
  }

  const expectStatus = (status: number, expected: number, what: string) => {
    if (status !== expected) throw new Error(`${what} answered ${status}`);
  };
  // The yardstick, measured right before each endpoint in the same app, database and conditions: the
  // authenticated profile request of the same subscribers (issue 11: library and grant ≥ 50 % of it).
  const profile = () =>
    load(1000, CONCURRENCY, async (i) => {
      const res = await t.request('GET', '/api/auth/profile', { token: tokens[i % SUBSCRIBERS] });
      expectStatus(res.status, 200, 'GET /api/auth/profile');
    });
  const report = (what: string, figures: LoadFigures, yardstick: LoadFigures) =>
    console.log(
      `${what} on ${kind}: ${describeLoad(figures)}; ` +
        `${(figures.requestsPerSecond / yardstick.requestsPerSecond).toFixed(2)} × the profile request ` +
        `(${describeLoad(yardstick)})`,
    );

  let yardstick = await profile();
  const etags: string[] = [];
  const list = await load(1000, CONCURRENCY, async (i) => {
    const res = await t.request('GET', '/api/users/movies', { token: tokens[i % SUBSCRIBERS] });
    expectStatus(res.status, 200, 'GET /api/users/movies');
    etags[i % SUBSCRIBERS] = res.headers.get('etag')!;
  });
  report(`GET /api/users/movies (${MOVIES} movies, page of 24 per category)`, list, yardstick);
  // What a returning browser sends: its ETag back, answered 304 without a body.
  const revalidated = await load(1000, CONCURRENCY, async (i) => {
    const res = await t.request('GET', '/api/users/movies', {
      token: tokens[i % SUBSCRIBERS],
      headers: { 'if-none-match': etags[i % SUBSCRIBERS]! },
    });
    expectStatus(res.status, 304, 'GET /api/users/movies with If-None-Match');
  });
  report('GET /api/users/movies revalidated (304)', revalidated, yardstick);
  const search = await load(1000, CONCURRENCY, async (i) => {
    const res = await t.request('GET', '/api/users/movies?search=lake', { token: tokens[i % SUBSCRIBERS] });
    expectStatus(res.status, 200, 'GET /api/users/movies?search=lake');
  });
  report('GET /api/users/movies?search=lake', search, yardstick);

  const grant = (subscriber: number, movie: number) =>
    t.request('POST', '/api/users/movies/generate-download-url', {
      token: tokens[subscriber],
      body: { movieId: grantable[movie]!.id },
    });
  yardstick = await profile();
  // Every request is a first grant: 50 subscribers × 40 Kinayuganda movies, each pair once.
  const grants = await load(SUBSCRIBERS * 40, CONCURRENCY, async (i) => {
    const res = await grant(i % SUBSCRIBERS, Math.floor(i / SUBSCRIBERS) % 200);
    expectStatus(res.status, 200, 'generate-download-url');
  });
  report('POST /api/users/movies/generate-download-url (new grants)', grants, yardstick);
  yardstick = await profile();
  // The same pairs again: the link a client asks for to resume an unfinished download (same row, resumedCount + 1).
  const resumes = await load(SUBSCRIBERS * 40, CONCURRENCY, async (i) => {
    const res = await grant(i % SUBSCRIBERS, Math.floor(i / SUBSCRIBERS) % 200);
    expectStatus(res.status, 200, 'generate-download-url (resume)');
  });
  report('POST /api/users/movies/generate-download-url (resumes)', resumes, yardstick);
  await t.close();
}
