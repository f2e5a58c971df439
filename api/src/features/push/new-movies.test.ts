import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { contracts } from '@filamu/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, TestClock, testDatabases } from '../../../test/harness.ts';
import { movies, pushDigests, pushMessages } from '../../db/schema.ts';
import { sweepNewMovies } from './new-movies.ts';

const HOUR = 3_600_000;

/** A browser subscription at a real push service's address (queued only here, never sent). */
function browserSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

async function addMovie(t: TestApp, category: 'Kinayuganda' | 'English', extra: { isActive?: boolean } = {}) {
  await t.deps.database.db.insert(movies).values({
    title: `Movie ${randomUUID().slice(0, 6)}`,
    category,
    s3Key: `movies/${randomUUID()}.mp4`,
    sizeBytes: 4096,
    contentType: 'video/mp4',
    createdAt: t.clock.now(),
    ...extra,
  });
}

const pushes = (t: TestApp) => t.deps.database.db.select().from(pushMessages).orderBy(pushMessages.createdAt);

describe.each(testDatabases)('the daily new-movies push on %s', (kind) => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('tells each subscribed person about new Kinayuganda movies at most once a Kampala day, across replicas', async () => {
    // 10:00 in Kampala.
    t = await createTestApp(kind, { clock: new TestClock('2026-11-22T07:00:00.000Z') });
    const a = await registerUser(t);
    const b = await registerUser(t);
    const quiet = await registerUser(t);
    await t.call(contracts.push.subscribe, { token: a.token, body: browserSubscription() });
    await t.call(contracts.push.subscribe, { token: a.token, body: browserSubscription() });
    await t.call(contracts.push.subscribe, { token: b.token, body: browserSubscription() });
    t.clock.advance(60_000);
    // Nothing new yet: an English movie and a hidden Kinayuganda one do not count.
    await addMovie(t, 'English');
    await addMovie(t, 'Kinayuganda', { isActive: false });
    expect(await sweepNewMovies(t.deps)).toBe(0);

    t.clock.advance(60_000);
    await addMovie(t, 'Kinayuganda');
    await addMovie(t, 'Kinayuganda');
    // Two replicas sweep at once: each person is told once (a's two phones one push each).
    const counts = await Promise.all([sweepNewMovies(t.deps), sweepNewMovies(t.deps), sweepNewMovies(t.deps)]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(2);
    let rows = await pushes(t);
    expect(rows.filter((r) => r.userId === a.user.id)).toHaveLength(2);
    expect(rows.filter((r) => r.userId === b.user.id)).toHaveLength(1);
    expect(rows.some((r) => r.userId === quiet.user.id)).toBe(false);
    expect(rows[0]).toMatchObject({
      kind: 'new_movies',
      title: '2 new Kinayuganda movies',
      url: '/movies?category=Kinayuganda',
    });

    // Another movie the same day: no second push today.
    t.clock.advance(HOUR);
    await addMovie(t, 'Kinayuganda');
    expect(await sweepNewMovies(t.deps)).toBe(0);
    expect(await pushes(t)).toHaveLength(3);

    // The next day at 06:00 Kampala: night, nothing; at 09:00 the one movie not yet told about.
    t.clock.advance(19 * HOUR);
    expect(await sweepNewMovies(t.deps)).toBe(0);
    t.clock.advance(3 * HOUR);
    expect(await sweepNewMovies(t.deps)).toBe(2);
    rows = await pushes(t);
    expect(rows).toHaveLength(6);
    expect(rows.at(-1)!.title).toBe('A new Kinayuganda movie');
    // And nothing more that day, nor the day after without a new movie.
    expect(await sweepNewMovies(t.deps)).toBe(0);
    t.clock.advance(24 * HOUR);
    expect(await sweepNewMovies(t.deps)).toBe(0);
    const days = await t.deps.database.db.select().from(pushDigests);
    expect(days.map((d) => d.day).sort()).toEqual(['2026-11-22', '2026-11-22', '2026-11-23', '2026-11-23']);
  });
});
