import { contracts } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgentAs,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerUser,
  type TestApp,
  testDatabases,
} from '../../../test/harness.ts';
import { smsOutbox, users } from '../../db/schema.ts';
import { deliverSmsOutbox } from '../sms/outbox.ts';
import { CODE_TTL_MINUTES } from './recovery.ts';

const { auth } = contracts;
const PASSWORD = 'correct horse battery';
const WRONG_CODE = 'That code is wrong or has expired. Check the message, or ask for a new code.';

let numbers = 0;
/** A fresh Airtel number, written the way people type it, and its canonical form. */
function freshNumber() {
  numbers += 1;
  const national = `75${String(process.pid % 1000).padStart(3, '0')}${String(numbers).padStart(4, '0')}`;
  return {
    typed: `0${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`,
    canonical: `256${national}`,
  };
}

describe.each(testDatabases)('changing the phone number on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const askCode = (token: string, newPhone: string, currentPassword = PASSWORD) =>
    t.call(auth.requestPhoneChangeCode, { body: { newPhone, currentPassword }, token });
  const confirm = (token: string, newPhone: string, code: string) =>
    t.call(auth.changePhone, { body: { newPhone, code }, token });

  /** Sends the outbox through the simulator and reads the latest 6-digit code the phone received. */
  async function codeOnPhone(canonical: string): Promise<string> {
    while ((await deliverSmsOutbox(t.deps, t.deps.sms)) > 0);
    const [latest] = t.deps.smsSimulator!.messages(canonical);
    const code = /\b(\d{6})\b/.exec(latest?.text ?? '')?.[1];
    if (!code) throw new Error(`no code on ${canonical}`);
    return code;
  }
  const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('round trip: a code to the new number, the number changed, the old one told, recovery goes to the new one', async () => {
    const { token, user } = await registerUser(t);
    const oldPhone = user.phone as string;
    const next = freshNumber();

    const asked = await askCode(token, next.typed);
    expect(asked.status).toBe(200);
    expect(asked.json.newPhone).toBe(next.canonical);
    expect(asked.json.message).toContain(`${next.typed}`);
    const code = await codeOnPhone(next.canonical);
    const [row] = await t.deps.database.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, next.canonical));
    expect(row!.purpose).toBe('phone_change_code');

    const done = await confirm(token, next.typed, code);
    expect(done.status).toBe(200);
    expect(done.json.phone).toBe(next.canonical);
    expect((await t.call(auth.profile, { token })).json.phone).toBe(next.canonical);

    while ((await deliverSmsOutbox(t.deps, t.deps.sms)) > 0);
    const [notice] = t.deps.smsSimulator!.messages(oldPhone);
    expect(notice!.text).toBe(
      `Filamu: your number was changed to 0${next.canonical.slice(3, 6)}...${next.canonical.slice(-3)}. If this wasn't you, contact support.`,
    );

    // The same code does not work twice.
    expectErrorEnvelope(await confirm(token, next.typed, code), 400, 'bad_request', WRONG_CODE);

    // Recovery codes now go to the new number; the old one signs nobody in.
    expect((await t.call(auth.requestRecoveryCode, { body: { identifier: next.typed }, ip: freshIp() })).status).toBe(
      200,
    );
    const recoveryCode = await codeOnPhone(next.canonical);
    const reset = await t.call(auth.resetPassword, {
      body: { identifier: next.canonical, code: recoveryCode, newPassword: 'another long passphrase' },
      ip: freshIp(),
    });
    expect(reset.status).toBe(200);
    expect(reset.json.user.id).toBe(user.id);
    const oldLogin = await t.call(auth.login, {
      body: { identifier: oldPhone, password: 'another long passphrase' },
      ip: freshIp(),
    });
    expect(oldLogin.status).toBe(401);
  });

  it('refuses a wrong password, the same confirmed number and junk — sending nothing', async () => {
    const { token, user } = await registerUser(t);
    await t.deps.database.db.update(users).set({ phoneVerifiedAt: t.clock.now() }).where(eq(users.id, user.id));
    const next = freshNumber();
    const before = (await t.deps.database.db.select().from(smsOutbox)).length;

    const wrong = await askCode(token, next.typed, 'not my password');
    expectErrorEnvelope(wrong, 400, 'bad_request', 'Current password is incorrect.');
    expect(wrong.json.error.issues).toEqual([{ path: 'currentPassword', message: 'Current password is incorrect.' }]);

    expectErrorEnvelope(
      await askCode(token, user.phone),
      400,
      'bad_request',
      'That is already your number, and it is confirmed.',
    );
    const junk = await askCode(token, '0712 345');
    expectErrorEnvelope(junk, 400, 'validation_error');
    // Another account's number is answered like a free one (proven-channels.test.ts).
    expect((await t.deps.database.db.select().from(smsOutbox)).length).toBe(before);
    const [unchanged] = await t.deps.database.db.select().from(users).where(eq(users.id, user.id));
    expect(unchanged!.phone).toBe(user.phone);
  });

  it('refuses wrong, expired, other-number and brute-forced codes', async () => {
    const { token, user } = await registerUser(t);
    const next = freshNumber();

    // Expired: ten minutes later.
    await askCode(token, next.typed);
    const expired = await codeOnPhone(next.canonical);
    t.clock.advance(CODE_TTL_MINUTES * 60_000);
    expectErrorEnvelope(await confirm(token, next.typed, expired), 400, 'bad_request', WRONG_CODE);

    // A code sent to one number does not move the account to another.
    await askCode(token, next.typed);
    const code = await codeOnPhone(next.canonical);
    expectErrorEnvelope(await confirm(token, freshNumber().typed, code), 400, 'bad_request', WRONG_CODE);

    // Five wrong tries burn the code: the right one then fails too.
    await askCode(token, next.typed);
    const right = await codeOnPhone(next.canonical);
    for (let i = 0; i < 5; i++) {
      t.clock.advance(30_000); // past the back-off, so each guess reaches the code
      expectErrorEnvelope(await confirm(token, next.typed, otherCode(right)), 400, 'bad_request', WRONG_CODE);
    }
    t.clock.advance(30_000);
    expectErrorEnvelope(await confirm(token, next.typed, right), 400, 'bad_request', WRONG_CODE);
    const [unchanged] = await t.deps.database.db.select().from(users).where(eq(users.id, user.id));
    expect(unchanged!.phone).toBe(user.phone);

    // A fresh code still works.
    t.clock.advance(60_000);
    await askCode(token, next.typed);
    expect((await confirm(token, next.typed, await codeOnPhone(next.canonical))).status).toBe(200);
  });

  it('two accounts racing to one number: exactly one gets it, the other 409', async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const next = freshNumber();
    await askCode(a.token, next.typed);
    const codeA = await codeOnPhone(next.canonical);
    await askCode(b.token, next.typed);
    const codeB = await codeOnPhone(next.canonical);

    const results = await Promise.all([confirm(a.token, next.typed, codeA), confirm(b.token, next.typed, codeB)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expectErrorEnvelope(loser, 409, 'conflict', /^Another account has confirmed this phone number/);
    const holders = await t.deps.database.db.select().from(users).where(eq(users.phone, next.canonical));
    expect(holders).toHaveLength(1);
  });

  it('is for subscribers only: no session is 401, an agent is 403 (the admin sets agents’ numbers)', async () => {
    const body = { newPhone: freshNumber().typed, currentPassword: PASSWORD };
    expectErrorEnvelope(await t.call(auth.requestPhoneChangeCode, { body }), 401, 'unauthenticated');
    const { body: agentBody, password } = await createAgentAs(t, await loginAdmin(t));
    const signedIn = await t.request('POST', '/api/auth/agent/login', {
      body: { email: agentBody.email, password, currentDeviceId: 'agent-phone' },
      ip: freshIp(),
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    const agentToken = signedIn.json.token as string;
    expectErrorEnvelope(
      await t.call(auth.requestPhoneChangeCode, { body: { ...body, currentPassword: password }, token: agentToken }),
      403,
      'forbidden',
    );
    expectErrorEnvelope(
      await t.call(auth.changePhone, { body: { newPhone: body.newPhone, code: '123456' }, token: agentToken }),
      403,
      'forbidden',
    );
  });
});
