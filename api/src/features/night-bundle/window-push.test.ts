import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { contracts } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  TestClock,
  createTestApp,
  freshDatabase,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { addMovie, createPlan } from '../../../test/library.ts';
import type { Database } from '../../db/client.ts';
import { downloads, nightWindowPushes, pushMessages } from '../../db/schema.ts';
import { runNightWindowPush, sendNightWindowPushes } from './window-push.ts';

/** An instant given as Kampala wall time (UTC+3). */
const kampala = (local: string) => new Date(`${local}:00+03:00`).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A browser subscription at a real push service's address (queued only here, never sent). */
function browserSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

/** The database as seen by a process that dies as it queues a push (after claiming the person's window). */
function dyingOnPush(database: Database): Database {
  const db = new Proxy(database.db, {
    get(target, key) {
      if (key !== 'transaction') return Reflect.get(target, key);
      return (run: (tx: Database['db']) => Promise<unknown>) =>
        target.transaction((tx) =>
          run(
            new Proxy(tx, {
              get(inner, name) {
                if (name !== 'insert') return Reflect.get(inner, name);
                return (table: unknown) => {
                  if (table === pushMessages) throw new Error('crash');
                  return inner.insert(table as typeof pushMessages);
                };
              },
            }),
          ),
        );
    },
  });
  return { ...database, db };
}

describe.each(testDatabases)('the push when a night window opens, on %s with two replicas', (kind) => {
  let database: Database;
  let a: TestApp;
  let b: TestApp;
  // 23:00 in Kampala; both replicas read the same clock.
  const clock = new TestClock(kampala('2026-11-29T23:00'));
  let movieIds: string[];

  beforeAll(async () => {
    database = await freshDatabase(kind);
    a = await createTestApp(kind, { database, clock, keepDatabaseOpen: true });
    b = await createTestApp(kind, { database, clock, keepDatabaseOpen: true });
    const adminToken = await loginAdmin(a);
    const planId = await createPlan(a, adminToken);
    movieIds = [];
    for (let i = 0; i < 2; i++) movieIds.push((await addMovie(a, adminToken, { planIds: [planId] })).movie.id);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
  });

  /** A person, with `phones` push subscriptions and tonight's list of `films` (through either replica). */
  async function person(phones: number, films: string[]) {
    const { token, user } = await registerUser(a);
    for (let i = 0; i < phones; i++) {
      const res = await b.call(contracts.push.subscribe, { token, body: browserSubscription() });
      expect(res.status, res.text).toBeLessThan(300);
    }
    const items = films.map((movieId) => ({ movieId, size: 'original' }));
    const saved = await a.call(contracts.nightBundle.setMyTonight, { token, body: { items } });
    expect(saved.status, saved.text).toBe(200);
    return user.id as string;
  }

  const pushesOf = async () => (await database.db.select().from(pushMessages)).filter((p) => p.kind === 'night-window');
  const countBy = (rows: { userId: string }[]) =>
    rows.reduce<Record<string, number>>((n, r) => ({ ...n, [r.userId]: (n[r.userId] ?? 0) + 1 }), {});

  it('tells each person waiting with a film once per window, across replicas and a pass run again', async () => {
    const twoPhones = await person(2, [movieIds[0]!, movieIds[1]!]);
    const onePhone = await person(1, [movieIds[1]!]);
    const noPhone = await person(0, [movieIds[0]!]);
    const nothingQueued = await person(1, []);
    const alreadyHasIt = await person(1, [movieIds[0]!]);
    await database.db.insert(downloads).values({
      userId: alreadyHasIt,
      movieId: movieIds[0]!,
      status: 'completed',
      totalBytes: 4096,
      downloadedBytes: 4096,
      completedAt: clock.now(),
    });

    // Before the window: nothing, on either replica.
    expect(await Promise.all([sendNightWindowPushes(a.deps), sendNightWindowPushes(b.deps)])).toEqual([
      { opensAt: null, notified: 0 },
      { opensAt: null, notified: 0 },
    ]);
    expect(await pushesOf()).toEqual([]);

    // 00:00:30. A replica dies queuing its first push: nothing of that person's push is left, no claim either.
    clock.advance(HOUR + 30_000);
    await expect(sendNightWindowPushes({ ...a.deps, database: dyingOnPush(database) })).rejects.toThrow('crash');
    expect(await database.db.select().from(nightWindowPushes)).toEqual([]);
    // Then both replicas sweep at once, each twice (a pass run again finds the rows it made).
    const reports = await Promise.all([
      sendNightWindowPushes(a.deps),
      sendNightWindowPushes(b.deps),
      sendNightWindowPushes(a.deps),
      sendNightWindowPushes(b.deps),
    ]);
    expect(reports.reduce((sum, r) => sum + r.notified, 0)).toBe(2);
    expect(new Set(reports.map((r) => r.opensAt))).toEqual(new Set([kampala('2026-11-30T00:00')]));
    const pushes = await pushesOf();
    // One push per phone of each person told: two phones, one phone; nobody else.
    expect(countBy(pushes)).toEqual({ [twoPhones]: 2, [onePhone]: 1 });
    expect(pushes[0]).toMatchObject({
      title: 'Your night bundle is on',
      body: "Your night bundle is on: tap to start tonight's films",
      url: '/downloads/tonight?start=1',
    });
    for (const quiet of [noPhone, nothingQueued, alreadyHasIt]) expect(countBy(pushes)[quiet]).toBeUndefined();
    expect(await database.db.select().from(nightWindowPushes)).toHaveLength(2);

    // Later in the same window: no second push, whichever replica's timer fires.
    clock.advance(2 * HOUR);
    expect((await sendNightWindowPushes(b.deps)).notified).toBe(0);
    expect(await pushesOf()).toHaveLength(3);

    // 05:40: someone who queues a film in the window’s last half hour is not woken for it.
    clock.advance(3 * HOUR + 40 * MINUTE);
    await person(1, [movieIds[0]!]);
    expect((await sendNightWindowPushes(a.deps)).notified).toBe(0);

    // The next night's window: told again, once.
    clock.advance(18 * HOUR + 20 * MINUTE);
    const next = await Promise.all([sendNightWindowPushes(a.deps), sendNightWindowPushes(b.deps)]);
    expect(next.reduce((sum, r) => sum + r.notified, 0)).toBe(3);
    expect(await pushesOf()).toHaveLength(3 + 4);
  });

  it('runs one pass a minute whichever replica claims it', async () => {
    clock.advance(24 * HOUR);
    const passes = await Promise.all([runNightWindowPush(a.deps), runNightWindowPush(b.deps)]);
    expect(passes.filter((p) => p !== null)).toHaveLength(1);
    clock.advance(MINUTE);
    expect((await Promise.all([runNightWindowPush(b.deps), runNightWindowPush(a.deps)])).filter(Boolean)).toHaveLength(
      1,
    );
    // A week on, the claimed pass forgets the rows of windows long closed; and lists not saved for a week get no push.
    expect(await database.db.select().from(nightWindowPushes)).toHaveLength(2 + 3 + 3);
    clock.advance(8 * 24 * HOUR);
    expect(await runNightWindowPush(a.deps)).toMatchObject({ notified: 0 });
    expect(await database.db.select().from(nightWindowPushes)).toEqual([]);
  });
});
