import { performance } from 'node:perf_hooks';
import { contracts } from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerProvenUser,
  registerUser,
  type TestApp,
  testDatabases,
  withoutRequestId,
} from '../../../test/harness.ts';
import { mailOutbox, oneTimeCodes, smsOutbox, users } from '../../db/schema.ts';
import { deliverSmsOutbox } from '../sms/outbox.ts';
import { ANSWER_FLOOR_MS, CODE_TTL_MINUTES } from './recovery.ts';

const { auth } = contracts;
const WRONG_CODE = 'That code is wrong or has expired. Check the message, or ask for a new code.';
const NEW_PASSWORD = 'a brand new passphrase';

describe.each(testDatabases)('password recovery on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const ask = (identifier: string, ip = freshIp()) => t.call(auth.requestRecoveryCode, { body: { identifier }, ip });
  const reset = (identifier: string, code: string, ip = freshIp(), deviceId = 'recovered-phone') =>
    t.call(auth.resetPassword, {
      body: { identifier, code, newPassword: NEW_PASSWORD, currentDeviceId: deviceId },
      ip,
    });

  /** Sends the outbox through the simulator and reads the latest code the phone received. */
  async function codeOnPhone(phone: string): Promise<string> {
    while ((await deliverSmsOutbox(t.deps, t.deps.sms)) > 0);
    const [latest] = t.deps.smsSimulator!.messages(phone);
    const code = /\b(\d{6})\b/.exec(latest?.text ?? '')?.[1];
    if (!code) throw new Error(`no code on ${phone}`);
    return code;
  }

  const codeRows = (userId: string) =>
    t.deps.database.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, 'recovery')));

  it('by phone: a code by SMS, a new password, every old session ended, signed in on this device', async () => {
    const { body, token: oldToken, user } = await registerProvenUser(t);
    const localSpelling = body.phone; // 0772…, registered as 256772…
    const asked = await ask(localSpelling);
    expect(asked.status).toBe(200);
    expect(asked.json).toEqual({
      message:
        'If this number is confirmed on a Filamu account, we have sent it a 6-digit code. It works for 10 minutes, and codes sent earlier still work. No code? Ask with your email instead, or contact support on +256 772 000 111.',
      expiresInMinutes: CODE_TTL_MINUTES,
    });

    // The person running the app locally reads it where the admin can: the simulator's inbox.
    await deliverSmsOutbox(t.deps, t.deps.sms);
    const inbox = await t.call(contracts.system.smsSimulatorMessages, { token: await loginAdmin(t) });
    expect(inbox.status).toBe(200);
    const canonical = user.phone as string;
    const mine = inbox.json.messages.filter((m: { to: string }) => m.to === `+${canonical}`);
    expect(mine).toHaveLength(1);
    const code = /\b(\d{6})\b/.exec(mine[0].text)![1]!;
    expect(mine[0].text).toContain('10 minutes');

    const done = await reset(canonical, code);
    expect(done.status).toBe(200);
    expect(done.json.user).toMatchObject({ id: user.id, email: body.email });
    expect(typeof done.json.token).toBe('string');

    // The old session is over; the new one works; only the new password signs in.
    expectErrorEnvelope(await t.call(auth.profile, { token: oldToken }), 401, 'unauthenticated');
    expect((await t.call(auth.profile, { token: done.json.token })).status).toBe(200);
    const login = (password: string) =>
      t.call(auth.login, { body: { identifier: body.email, password }, ip: freshIp() });
    expect((await login(body.password)).status).toBe(401);
    expect((await login(NEW_PASSWORD)).status).toBe(200);

    // Used once: the same code again is refused.
    expectErrorEnvelope(await reset(canonical, code), 400, 'bad_request', WRONG_CODE);
    const sms = async () =>
      (await t.deps.database.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, canonical)))[0]!;
    expect(await sms()).toMatchObject({ purpose: 'password_reset', attempts: 1 });
    // The simulator's delivery report arrives a moment after the send.
    await expect.poll(async () => (await sms()).status).toBe('delivered');
  });

  it('by email: a code by mail', async () => {
    const { body, user } = await registerUser(t);
    expect((await ask(body.email.toUpperCase())).status).toBe(200);
    const [mail] = await t.deps.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, body.email));
    expect(mail).toMatchObject({ kind: 'password_reset', subject: 'Your Filamu code' });
    const code = /\b(\d{6})\b/.exec(mail!.body)![1]!;
    expect(t.deps.smsSimulator!.messages(user.phone)).toEqual([]);
    expect((await reset(body.email, code)).status).toBe(200);
  });

  it('refuses wrong, expired and brute-forced codes alike; a new code leaves the open one working', async () => {
    const { user } = await registerProvenUser(t);
    const phone = user.phone as string;

    await ask(phone);
    const first = await codeOnPhone(phone);
    const wrong = first === '000000' ? '111111' : '000000';
    expectErrorEnvelope(await reset(phone, wrong), 400, 'bad_request', WRONG_CODE);

    // A new code (after the minute's cool-down) is a second one: the first still works until it expires (decision 0198).
    t.clock.advance(60_000);
    await ask(phone);
    const second = await codeOnPhone(phone);
    expect(second).not.toBe(first);

    // Ten minutes after it was sent, the first has expired; the second lives a minute longer.
    t.clock.advance(CODE_TTL_MINUTES * 60_000 - 60_000);
    expectErrorEnvelope(await reset(phone, first), 400, 'bad_request', WRONG_CODE);
    t.clock.advance(60_000);
    expectErrorEnvelope(await reset(phone, second), 400, 'bad_request', WRONG_CODE);

    // Five wrong tries burn a code: the right one no longer works.
    t.clock.advance(CODE_TTL_MINUTES * 60_000);
    await ask(phone);
    const third = await codeOnPhone(phone);
    const guesses = ['111111', '222222', '333333', '444444', '555555', '666666'].filter((g) => g !== third);
    let refused = 0;
    for (const guess of guesses.slice(0, 5)) {
      const res = await reset(phone, guess);
      expect(res.status).not.toBe(200);
      refused += 1;
      t.clock.advance(30_000); // past the sign-in back-off (1, 2, 4… s), so each guess reaches the code
    }
    expect(refused).toBe(5);
    expectErrorEnvelope(await reset(phone, third), 400, 'bad_request', WRONG_CODE);
    const rows = await codeRows(user.id);
    expect(rows.every((row) => row.usedAt !== null || row.expiresAt <= t.clock.now())).toBe(true);
    expect(Math.max(...rows.map((row) => row.attempts))).toBe(5);
    // Stored as a keyed digest, never the digits.
    expect(rows.some((row) => row.codeHash.includes(third))).toBe(false);
  });

  it('answers alike, in the same time, for an account that exists and one that does not', async () => {
    const { user } = await registerProvenUser(t);
    const unknown = '0709123456';
    const timed = async (identifier: string) => {
      const start = performance.now();
      const res = await ask(identifier);
      return { res, ms: performance.now() - start };
    };
    const samples = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 3; i++) {
      const known = await timed(user.phone);
      const none = await timed(unknown);
      expect(known.res.status).toBe(none.res.status);
      expect(withoutRequestId(known.res.json)).toEqual(withoutRequestId(none.res.json));
      samples.known.push(known.ms);
      samples.unknown.push(none.ms);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
    expect(Math.min(...samples.known, ...samples.unknown)).toBeGreaterThanOrEqual(ANSWER_FLOOR_MS - 5);
    expect(Math.abs(median(samples.known) - median(samples.unknown))).toBeLessThan(100);
    // Unknown numbers get no message, and a reset for them reads exactly like a wrong code.
    const queued = await t.deps.database.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, '256709123456'));
    expect(queued).toEqual([]);
    const none = await reset(unknown, '123456');
    const wrong = await reset(user.phone, '123456');
    expect(none.status).toBe(wrong.status);
    expect(withoutRequestId(none.json)).toEqual(withoutRequestId(wrong.json));
  });

  it('never sends a code for the protected admin, and answers the same', async () => {
    const res = await ask(ADMIN.email);
    expect(res.status).toBe(200);
    const [admin] = await t.deps.database.db.select().from(users).where(eq(users.email, ADMIN.email));
    expect(await codeRows(admin!.id)).toEqual([]);
  });

  it('limits codes per number for minutes, cools down per account, never locking out a carrier address', async () => {
    const carrier = freshIp();
    // Forty subscribers behind one carrier address each ask for a code: all are sent.
    const people = await Promise.all(Array.from({ length: 40 }, () => registerProvenUser(t)));
    const answers = await Promise.all(people.map(({ user }) => ask(user.phone, carrier)));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));

    // One number: ten asks in ten minutes, then 429, the same for a number with no account; ten minutes on, it
    // answers again (decision 0198: a stranger can make the owner wait, not shut them out for an hour).
    for (const [identifier, before] of [
      [people[0]!.user.phone as string, 1],
      ['0709000111', 0],
    ] as const) {
      for (let i = before; i < 10; i++) expect((await ask(identifier, carrier)).status).toBe(200);
      const eleventh = await ask(identifier, carrier);
      expectErrorEnvelope(eleventh, 429, 'rate_limited');
    }
    // The rest of the carrier's subscribers are unaffected.
    expect((await ask(people[1]!.user.phone, carrier)).status).toBe(200);
    while ((await deliverSmsOutbox(t.deps, t.deps.sms)) > 0); // sent before the clock moves past their expiry
    t.clock.advance(10 * 60_000);
    expect((await ask(people[0]!.user.phone, carrier)).status).toBe(200);

    // Per account, whichever identifier names it: asks inside the cool-down send nothing, and answer the same.
    const { body, user } = await registerProvenUser(t);
    for (let i = 0; i < 3; i++) expect((await ask(user.phone)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await ask(body.email)).status).toBe(200);
    expect(await codeRows(user.id)).toHaveLength(1);
    t.clock.advance(60_000);
    expect((await ask(body.email)).status).toBe(200);
    expect(await codeRows(user.id)).toHaveLength(2);
  });

  it("brute force on one account does not stop other subscribers' resets from the same address", async () => {
    const carrier = freshIp();
    const victim = await registerProvenUser(t);
    await ask(victim.user.phone);
    for (let i = 0; i < 12; i++) await reset(victim.user.phone, String(100000 + i), carrier);
    const other = await registerProvenUser(t);
    await ask(other.user.phone);
    const code = await codeOnPhone(other.user.phone);
    expect((await reset(other.user.phone, code, carrier)).status).toBe(200);
  });
});
