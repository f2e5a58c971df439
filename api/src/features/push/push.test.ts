import { contracts } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  expectErrorEnvelope,
  registerUser,
  type TestApp,
  testDatabases,
} from '../../../test/harness.ts';
import { pushMessages, pushSubscriptions } from '../../db/schema.ts';
import { generateVapidKeys, type VapidKeys, webPushGateway } from './gateway.ts';
import { deliverPushOutbox, queuePush } from './outbox.ts';
import { startLocalPushService, type LocalPushService } from './push-service.testing.ts';
import { pushReminderChannel } from '../reminders/push-channel.ts';

let service: LocalPushService;
let keys: VapidKeys;
beforeAll(async () => {
  service = await startLocalPushService();
  keys = generateVapidKeys();
  return () => service.close();
});

async function pushApp(kind: (typeof testDatabases)[number]) {
  const push = webPushGateway({ keys, subject: 'mailto:ops@filamu.test', timeoutMs: 2000, agent: service.agent });
  return createTestApp(kind, {
    push,
    env: { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, PUSH_SERVICE_ORIGINS: service.origin },
  });
}

const notice = { kind: 'new_movies', title: 'New', body: 'Body', url: '/movies?category=Kinayuganda' } as const;

describe.each(testDatabases)('push subscriptions on %s', (kind) => {
  let t: TestApp;
  afterEach(async () => {
    await t.close();
  });

  it('gives the VAPID public key; one generated key is kept for every process sharing the database', async () => {
    t = await createTestApp(kind);
    const generated = (await t.call(contracts.push.publicKey)).json.publicKey as string;
    expect(generated).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const shared = { database: t.deps.database, keepDatabaseOpen: true };
    const second = await createTestApp(kind, shared);
    expect((await second.call(contracts.push.publicKey)).json.publicKey).toBe(generated);
    await second.close();
    const configured = await createTestApp(kind, {
      ...shared,
      env: { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey },
    });
    const res = await configured.call(contracts.push.publicKey);
    expect(res.status).toBe(200);
    expect(res.json.publicKey).toBe(keys.publicKey);
    await configured.close();
  });

  it('keeps a subscription for the signed-in person, refuses bad ones, and forgets it on unsubscribe', async () => {
    t = await pushApp(kind);
    const { token, user } = await registerUser(t);
    const browser = service.subscribe();
    expectErrorEnvelope(await t.call(contracts.push.subscribe, { body: browser }), 401, 'unauthenticated');
    const bad = [
      { ...browser, endpoint: 'http://fcm.googleapis.com/fcm/send/x' },
      { ...browser, endpoint: 'https://169.254.169.254/latest/meta-data' },
      { ...browser, endpoint: `https://fcm.googleapis.com/fcm/send/${'a'.repeat(1100)}` },
      { ...browser, endpoint: 'https://fcm.googleapis.com.evil.example/fcm/send/x' },
      { ...browser, keys: { ...browser.keys, p256dh: 'short' } },
      { ...browser, keys: { ...browser.keys, auth: `${browser.keys.auth}AAAA` } },
      { ...browser, keys: { ...browser.keys, auth: '!!!!!!!!!!!!!!!!!!!!!!' } },
      { endpoint: browser.endpoint },
    ];
    for (const body of bad) {
      expectErrorEnvelope(await t.call(contracts.push.subscribe, { body, token }), 400, 'validation_error');
    }
    expect(await t.deps.database.db.select().from(pushSubscriptions)).toHaveLength(0);

    const ok = await t.call(contracts.push.subscribe, { body: { ...browser, expirationTime: null }, token });
    expect(ok.status).toBe(201);
    expect(ok.json).toEqual({ subscribed: true });
    // A real push service address is accepted too (never called here).
    const fcm = { ...service.subscribe(), endpoint: 'https://fcm.googleapis.com/fcm/send/abc:def' };
    expect((await t.call(contracts.push.subscribe, { body: fcm, token })).status).toBe(201);
    const rows = await t.deps.database.db.select().from(pushSubscriptions);
    expect(rows.map((r) => [r.userId, r.endpoint]).sort()).toEqual(
      [
        [user.id, browser.endpoint],
        [user.id, fcm.endpoint],
      ].sort(),
    );

    // The same phone signed in to another account: the subscription moves, never notifies both.
    const other = await registerUser(t);
    expect((await t.call(contracts.push.subscribe, { body: browser, token: other.token })).status).toBe(201);
    const [moved] = await t.deps.database.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, browser.endpoint));
    expect(moved!.userId).toBe(other.user.id);

    // Someone else's endpoint is not removed; one's own is, and again is fine.
    const off = { endpoint: browser.endpoint };
    expect((await t.call(contracts.push.unsubscribe, { body: off, token })).json).toEqual({ subscribed: false });
    expect(await t.deps.database.db.select().from(pushSubscriptions)).toHaveLength(2);
    expect((await t.call(contracts.push.unsubscribe, { body: off, token: other.token })).status).toBe(200);
    expect((await t.call(contracts.push.unsubscribe, { body: off, token: other.token })).status).toBe(200);
    const left = await t.deps.database.db.select().from(pushSubscriptions);
    expect(left.map((r) => r.endpoint)).toEqual([fcm.endpoint]);
  });

  it('sends each queued push once under two racing dispatchers, encrypted to the browser and VAPID-signed', async () => {
    t = await pushApp(kind);
    const people = await Promise.all([registerUser(t), registerUser(t), registerUser(t)]);
    const browsers = [];
    for (const person of people) {
      for (let i = 0; i < 2; i++) {
        const browser = service.subscribe();
        browsers.push(browser);
        await t.call(contracts.push.subscribe, { body: browser, token: person.token });
      }
    }
    const db = t.deps.database.db;
    for (const person of people) {
      expect(await queuePush(db, t.clock.now(), person.user.id, { ...notice, title: person.user.id })).toBe(2);
    }
    const before = service.requests();
    const [a, b] = await Promise.all([deliverPushOutbox(t.deps, t.deps.push), deliverPushOutbox(t.deps, t.deps.push)]);
    expect(a + b).toBe(6);
    expect(service.requests() - before).toBe(6);
    for (const browser of browsers) {
      const got = service.received(browser.endpoint);
      expect(got).toHaveLength(1);
      expect(got[0]!.payload).toMatchObject({ kind: 'new_movies', body: 'Body', url: '/movies?category=Kinayuganda' });
      expect(got[0]!.vapidSubject).toBe('mailto:ops@filamu.test');
    }
    const rows = await db.select().from(pushMessages);
    expect(rows.map((r) => [r.status, r.attempts])).toEqual(rows.map(() => ['sent', 1]));
    expect(await deliverPushOutbox(t.deps, t.deps.push)).toBe(0);
    expect(service.requests() - before).toBe(6);
  });

  it('removes a subscription the push service says is gone (410) and marks its pushes gone', async () => {
    t = await pushApp(kind);
    const { token, user } = await registerUser(t);
    const kept = service.subscribe();
    const expired = service.subscribe();
    await t.call(contracts.push.subscribe, { body: kept, token });
    await t.call(contracts.push.subscribe, { body: expired, token });
    service.expire(expired.endpoint);
    const db = t.deps.database.db;
    await queuePush(db, t.clock.now(), user.id, notice);
    await queuePush(db, t.clock.now(), user.id, { ...notice, title: 'Second' });
    expect(await deliverPushOutbox(t.deps, t.deps.push)).toBe(2);
    const subs = await db.select().from(pushSubscriptions);
    expect(subs.map((s) => s.endpoint)).toEqual([kept.endpoint]);
    const rows = await db.select().from(pushMessages);
    const gone = rows.filter((r) => r.status === 'gone');
    expect(gone).toHaveLength(2);
    expect(gone.every((r) => r.subscriptionId === null && /^410/.test(r.error ?? ''))).toBe(true);
    // One request reached the dead endpoint; its second push was not attempted.
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(2);
    expect(service.received(kept.endpoint)).toHaveLength(2);
  });

  it('retries a push service that is down, with back-off', async () => {
    t = await pushApp(kind);
    const { token, user } = await registerUser(t);
    const browser = service.subscribe();
    await t.call(contracts.push.subscribe, { body: browser, token });
    await queuePush(t.deps.database.db, t.clock.now(), user.id, notice);
    // Nothing listens on port 9 of the loopback: the request never left.
    const down = webPushGateway({ keys, subject: 'mailto:ops@filamu.test', timeoutMs: 2000, agent: service.agent });
    await t.deps.database.db
      .update(pushSubscriptions)
      .set({ endpoint: 'https://127.0.0.1:9/wpush/x' })
      .where(eq(pushSubscriptions.userId, user.id));
    expect(await deliverPushOutbox(t.deps, down)).toBe(0);
    const [row] = await t.deps.database.db.select().from(pushMessages);
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    expect(row!.error).toMatch(/ECONNREFUSED/);
    expect(row!.nextAttemptAt.getTime()).toBe(t.clock.now().getTime() + 30_000);
  });

  it('queues plan reminders by push only for people who subscribed', async () => {
    t = await pushApp(kind);
    const withPush = await registerUser(t);
    const without = await registerUser(t);
    await t.call(contracts.push.subscribe, { body: service.subscribe(), token: withPush.token });
    const reminder = {
      kind: 'plan_ends_in_3_days' as const,
      phone: null,
      planName: 'Monthly',
      accessUntil: new Date('2026-12-31T20:59:00Z'),
      renewUrl: 'https://filamu.example/subscription?from=reminder',
    };
    const db = t.deps.database.db;
    expect(await pushReminderChannel.queue(db, t.clock.now(), { ...reminder, userId: without.user.id })).toBe(false);
    expect(await pushReminderChannel.queue(db, t.clock.now(), { ...reminder, userId: withPush.user.id })).toBe(true);
    const rows = await db.select().from(pushMessages);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: withPush.user.id,
      kind: 'plan_ends_in_3_days',
      title: 'Your Filamu plan ends in 3 days',
      body: 'Monthly: access until 31 Dec 2026. Renew to keep downloading.',
      url: '/subscription?from=reminder',
      status: 'queued',
    });
  });
});
