import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { moviePlans, movies } from '../src/db/schema.ts';
import { type DatabaseKind, createTestApp, loginAdmin, registerUser } from '../test/harness.ts';
import { createPlan, fakeMp4, subscribe } from '../test/library.ts';
import { describeLoad, loadSideBySide } from './measure.ts';

const MOVIES = 5000;
const SUBSCRIBERS = 50;
const CONCURRENCY = 20;
/** Alternating rounds of the profile request and the endpoint measured (see loadSideBySide). */
const ROUNDS = 5;

/**
 * The library listing and the grant endpoint with 5,000 movies (half Kinayuganda, half English, all in
 * one plan) and 50 subscribers, in-process through the real app; each in rounds alternating with the
 * authenticated profile request, and reported as a ratio of it (issue 11's target, docs/decisions/0069).
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
  // The yardstick, in the same app, database and conditions, in rounds alternating with each endpoint: the
  // authenticated profile request of the same subscribers (issue 11: library and grant ≥ 50 % of it).
  const profile = {
    total: 1000,
    request: async (i: number) => {
      const res = await t.request('GET', '/api/auth/profile', { token: tokens[i % SUBSCRIBERS] });
      expectStatus(res.status, 200, 'GET /api/auth/profile');
    },
  };
  const measure = async (what: string, total: number, request: (i: number) => Promise<void>) => {
    const { yardstick, subject } = await loadSideBySide(ROUNDS, CONCURRENCY, profile, { total, request });
    console.log(
      `${what} on ${kind}: ${describeLoad(subject)}; ` +
        `${(subject.requestsPerSecond / yardstick.requestsPerSecond).toFixed(2)} × the profile request ` +
        `(${describeLoad(yardstick)})`,
    );
  };

  const etags: string[] = [];
  await measure(`GET /api/users/movies (${MOVIES} movies, page of 24 per category)`, 1000, async (i) => {
    const res = await t.request('GET', '/api/users/movies', { token: tokens[i % SUBSCRIBERS] });
    expectStatus(res.status, 200, 'GET /api/users/movies');
    etags[i % SUBSCRIBERS] = res.headers.get('etag')!;
  });
  // What a returning browser sends: its ETag back, answered 304 without a body.
  await measure('GET /api/users/movies revalidated (304)', 1000, async (i) => {
    const res = await t.request('GET', '/api/users/movies', {
      token: tokens[i % SUBSCRIBERS],
      headers: { 'if-none-match': etags[i % SUBSCRIBERS]! },
    });
    expectStatus(res.status, 304, 'GET /api/users/movies with If-None-Match');
  });
  await measure('GET /api/users/movies?search=lake', 1000, async (i) => {
    const res = await t.request('GET', '/api/users/movies?search=lake', { token: tokens[i % SUBSCRIBERS] });
    expectStatus(res.status, 200, 'GET /api/users/movies?search=lake');
  });

  const grant = async (i: number, what: string, licensed = false) => {
    // Licensed grants (decision 0230) use another 40 movies per subscriber, so their first round is first grants too.
    const movie = grantable[Math.floor(i / SUBSCRIBERS) + (licensed ? 40 : 0)]!;
    const res = await t.request('POST', '/api/users/movies/generate-download-url', {
      token: tokens[i % SUBSCRIBERS],
      body: { movieId: movie.id, ...(licensed ? { devicePublicKey: phoneKey } : {}) },
    });
    expectStatus(res.status, 200, what);
    if (licensed && !res.json.licence) throw new Error(`${what} carried no licence`);
  };
  // The phone's licence key, as the app sends it: RSA-OAEP 2048, SHA-256, SPKI in base64url.
  const { publicKey } = await crypto.subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['wrapKey', 'unwrapKey'],
  );
  const phoneKey = Buffer.from(await crypto.subtle.exportKey('spki', publicKey)).toString('base64url');
  // Every request is a first grant: 50 subscribers × 40 Kinayuganda movies, each pair once.
  await measure('POST /api/users/movies/generate-download-url (new grants)', SUBSCRIBERS * 40, (i) =>
    grant(i, 'generate-download-url'),
  );
  // The same pairs again: the link a client asks for to resume an unfinished download (same row, resumedCount + 1).
  await measure('POST /api/users/movies/generate-download-url (resumes)', SUBSCRIBERS * 40, (i) =>
    grant(i, 'generate-download-url (resume)'),
  );
  // With the phone's key: a first grant issues the licence (title key made, wrapped, signed); a resume re-wraps it.
  await measure('POST /api/users/movies/generate-download-url (new grants + licence)', SUBSCRIBERS * 40, (i) =>
    grant(i, 'generate-download-url + licence', true),
  );
  await measure('POST /api/users/movies/generate-download-url (resumes + licence)', SUBSCRIBERS * 40, (i) =>
    grant(i, 'generate-download-url (resume) + licence', true),
  );
  await t.close();
}
