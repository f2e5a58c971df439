import { contracts, DEFAULT_SMS_BUDGET, type SmsBudgetSetting } from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerProvenUser,
  type TestApp,
  testDatabases,
} from '../../../test/harness.ts';
import { smsOutbox } from '../../db/schema.ts';
import { takeFromBudget } from './budget.ts';
import { deliverSmsOutbox, queueSms } from './outbox.ts';

const { auth, settings } = contracts;
const HOUR = 3_600_000;
const METRICS_TOKEN = 'metrics-token-for-sms-budget-tests';
const CODES_REFUSED = /^We can't send codes right now\. Please try again in \d+ minutes\.$/;
/** The day ends at midnight in Kampala; the tests' clock starts at noon there. */
const CODES_REFUSED_TODAY = /^We can't send codes right now\. Please try again in \d+ hours\.$/;
const NETWORK_REFUSED = /^We can't send more codes to your network right now\. Please try again in \d+ minutes\.$/;

let networks = 0;
/** An address in a /24 no other request of this file used. */
const freshNetwork = () => `10.77.${++networks}.1`;

describe.each(testDatabases)('the SMS budget on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { METRICS_TOKEN } });
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const setBudget = async (change: Partial<SmsBudgetSetting>) => {
    const res = await t.call(settings.adminSetSmsBudget, { token: admin, body: { ...DEFAULT_SMS_BUDGET, ...change } });
    expect(res.status, res.text).toBe(200);
  };
  beforeEach(() => setBudget({}));

  const askRecovery = (identifier: string, ip = freshNetwork()) =>
    t.call(auth.requestRecoveryCode, { body: { identifier }, ip });
  const rows = (purpose: string) =>
    t.deps.database.db.select().from(smsOutbox).where(eq(smsOutbox.purpose, purpose)).orderBy(smsOutbox.createdAt);
  const scrape = async () => {
    const res = await t.request('GET', '/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text;
  };

  it('refuses codes past the hourly ceiling with "try again later", queues none, and sends again the next hour', async () => {
    // Registered first: a code sent at registration must not use the small ceiling up.
    const people = await Promise.all([1, 2, 3, 4].map(() => registerProvenUser(t)));
    await setBudget({ codes: { perHour: 2, perDay: 50 } });
    const before = (await rows('password_reset')).length;
    for (const { user } of people.slice(0, 2)) expect((await askRecovery(user.phone)).status).toBe(200);

    const refused = await askRecovery(people[2]!.user.phone);
    expectErrorEnvelope(refused, 503, 'unavailable', CODES_REFUSED);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // A phone change, asked by a signed-in person, meets the same ceiling.
    const change = await t.call(auth.requestPhoneChangeCode, {
      token: people[3]!.token,
      body: { newPhone: '0752000111', currentPassword: people[3]!.body.password },
      ip: freshNetwork(),
    });
    expectErrorEnvelope(change, 503, 'unavailable', CODES_REFUSED);
    expect((await rows('password_reset')).length).toBe(before + 2);
    expect(await rows('phone_change_code')).toHaveLength(0);

    t.clock.advance(HOUR);
    expect((await askRecovery(people[2]!.user.phone)).status).toBe(200);
    expect((await rows('password_reset')).length).toBe(before + 3);
    t.clock.advance(HOUR);
  });

  it('also holds the daily ceiling across hours', async () => {
    const [a, b] = await Promise.all([registerProvenUser(t), registerProvenUser(t)]);
    await setBudget({ codes: { perHour: 1, perDay: 1 } });
    // Whatever the day has sent already (the test above) counts: the ceiling of 1 is reached.
    expectErrorEnvelope(await askRecovery(a.user.phone), 503, 'unavailable', CODES_REFUSED_TODAY);
    t.clock.advance(HOUR);
    expectErrorEnvelope(await askRecovery(b.user.phone), 503, 'unavailable', CODES_REFUSED_TODAY);
  });

  it('keeps receipts queued past their ceiling, never drops them, and sends them when the next hour allows', async () => {
    await setBudget({ receipts: { perHour: 1, perDay: 50 } });
    const now = t.clock.now();
    for (const n of [1, 2, 3]) {
      await queueSms(t.deps.database.db, now, {
        to: `25677212300${n}`,
        text: `Receipt ${n}`,
        purpose: 'payment_receipt',
      });
    }
    const sentTo = () => t.deps.smsSimulator!.messages().filter((m) => m.text.startsWith('Receipt')).length;
    expect(await deliverSmsOutbox(t.deps, t.deps.sms)).toBe(1);
    expect(sentTo()).toBe(1);
    const waiting = (await rows('payment_receipt')).filter((r) => r.status === 'queued');
    expect(waiting).toHaveLength(2);
    // Held, not attempted: the retries a gateway refusal earns are all still there.
    for (const row of waiting) expect(row).toMatchObject({ attempts: 0, error: null });

    t.clock.advance(HOUR);
    expect(await deliverSmsOutbox(t.deps, t.deps.sms)).toBe(1);
    t.clock.advance(HOUR);
    expect(await deliverSmsOutbox(t.deps, t.deps.sms)).toBe(1);
    expect(sentTo()).toBe(3);
  });

  it('sounds the alarm in the metrics and on the Overview at the alarm share, and for a low balance', async () => {
    t.clock.advance(HOUR);
    const people = await Promise.all([1, 2].map(() => registerProvenUser(t)));
    t.clock.advance(HOUR);
    await setBudget({ codes: { perHour: 4, perDay: 100 }, alarmPercent: 50, balanceAlarmUgx: 0 });
    expect(await scrape()).toContain('filamu_sms_budget_alarm{purpose="codes"} 0');
    for (const { user } of people) expect((await askRecovery(user.phone)).status).toBe(200);

    const text = await scrape();
    expect(text).toContain('filamu_sms_budget_alarm{purpose="codes"} 1');
    expect(text).toContain('filamu_sms_budget_sent{purpose="codes",period="hour"} 2');
    expect(text).toContain('filamu_sms_budget_ceiling{purpose="codes",period="hour"} 4');
    const status = await t.call(settings.adminSmsBudgetStatus, { token: admin });
    expect(status.status, status.text).toBe(200);
    expect(status.json.alarm).toBe(true);
    expect(status.json.purposes.find((p: { purpose: string }) => p.purpose === 'codes')).toMatchObject({
      hour: { sent: 2, ceiling: 4 },
      alarm: true,
      reached: false,
    });

    // The simulator's account starts at UGX 50,000: a threshold above it is a low balance.
    await setBudget({ balanceAlarmUgx: 60_000 });
    const low = await t.call(settings.adminSmsBudgetStatus, { token: admin });
    expect(low.json).toMatchObject({ balanceLow: true, alarm: true });
    expect(low.json.balanceUgx).toBeGreaterThan(0);
  });

  it('says "alarm" and "reached" once each in the log', async () => {
    t.clock.advance(HOUR);
    const lines: { msg: string; purpose: string }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const setting = { ...DEFAULT_SMS_BUDGET, credentials: { perHour: 3, perDay: 100 }, alarmPercent: 60 };
    const taken = [];
    for (let i = 0; i < 5; i++) {
      taken.push(await takeFromBudget(t.deps.database.db, logger, 'credentials', setting, t.clock.now()));
    }
    expect(taken.map((until) => until === null)).toEqual([true, true, true, false, false]);
    expect(lines.map((l) => [l.purpose, l.msg])).toEqual([
      ['credentials', 'sms budget alarm: a purpose is near its ceiling'],
      ['credentials', 'sms budget reached: codes are refused and other texts wait until the period ends'],
    ]);
  });

  it('counts code requests per /24 (IPv4) and /64 (IPv6), not per address', async () => {
    const { user } = await registerProvenUser(t);
    await setBudget({ codesPerNetworkPerHour: 3 });
    const asks = ['10.88.1.', '2001:db8:88:1::'].flatMap((prefix) => [1, 2, 3, 4].map((n) => `${prefix}${n}`));
    for (const [i, ip] of asks.entries()) {
      const res = await askRecovery(`07720${String(i).padStart(5, '0')}`, ip);
      if (i % 4 < 3) expect(res.status, `${ip}: ${res.text}`).toBe(200);
      else expectErrorEnvelope(res, 429, 'rate_limited', NETWORK_REFUSED);
    }
    // The neighbouring networks are not touched.
    expect((await askRecovery(user.phone, '10.88.2.1')).status).toBe(200);
    expect((await askRecovery(user.email, '2001:db8:88:2::1')).status).toBe(200);
  });
});

describe.each(testDatabases)('the SMS budget under concurrent requests on %s', (kind) => {
  it('sends exactly the ceiling when more code requests than it arrive at once', async () => {
    const t = await createTestApp(kind);
    try {
      const admin = await loginAdmin(t);
      const people = await Promise.all(Array.from({ length: 8 }, () => registerProvenUser(t)));
      await t.call(settings.adminSetSmsBudget, {
        token: admin,
        body: { ...DEFAULT_SMS_BUDGET, codes: { perHour: 3, perDay: 100 } },
      });
      const answers = await Promise.all(
        people.map(({ user }, i) =>
          t.call(auth.requestRecoveryCode, { body: { identifier: user.phone }, ip: `10.99.${i}.1` }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 503, 503, 503, 503, 503]);
      const queued = await t.deps.database.db
        .select()
        .from(smsOutbox)
        .where(and(eq(smsOutbox.purpose, 'password_reset')));
      expect(queued).toHaveLength(3);
    } finally {
      await t.close();
    }
  });
});

describe.each(testDatabases)('the SMS budget setting on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('answers the defaults, takes a change from an admin only, and refuses ceilings out of bounds', async () => {
    const admin = await loginAdmin(t);
    expect((await t.call(settings.adminSmsBudget, { token: admin })).json).toEqual(DEFAULT_SMS_BUDGET);
    const { token } = await registerProvenUser(t);
    const change = { ...DEFAULT_SMS_BUDGET, codes: { perHour: 10, perDay: 20 } };
    expectErrorEnvelope(await t.call(settings.adminSetSmsBudget, { token, body: change }), 403, 'forbidden');
    expectErrorEnvelope(await t.call(settings.adminSetSmsBudget, { body: change }), 401, 'unauthenticated');
    for (const [codes, message] of [
      [{ perHour: 0, perDay: 20 }, /at least 1/],
      [{ perHour: 30, perDay: 20 }, /cannot be above the daily one/],
      [{ perHour: 1.5, perDay: 20 }, /whole number/],
    ] as const) {
      const res = await t.call(settings.adminSetSmsBudget, { token: admin, body: { ...change, codes } });
      expectErrorEnvelope(res, 400, 'validation_error', message);
    }
    expect((await t.call(settings.adminSetSmsBudget, { token: admin, body: change })).json).toEqual(change);
    expect((await t.call(settings.adminSmsBudget, { token: admin })).json).toEqual(change);
  });
});
