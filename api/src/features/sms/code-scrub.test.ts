import { contracts } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  freshIp,
  loginAdmin,
  registerProvenUser,
  type TestApp,
  testDatabases,
} from '../../../test/harness.ts';
import { mailOutbox, smsOutbox } from '../../db/schema.ts';
import { deliverSmsOutbox, queueSms } from './outbox.ts';
import { SMS_SIMULATOR_API_KEY, SMS_SIMULATOR_USERNAME } from './simulator.ts';

const { auth, system } = contracts;
const SIX_DIGITS = /\b\d{6}\b/;
const MINUTE = 60_000;

describe.each(testDatabases)('codes in the outboxes on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const smsRow = async (id: string) =>
    (await t.deps.database.db.select().from(smsOutbox).where(eq(smsOutbox.id, id)))[0]!;
  const drain = async () => {
    while ((await deliverSmsOutbox(t.deps, t.deps.sms)) > 0);
  };

  it('masks a recovery code once sent: the phone has it, the outbox and the console show the text without it', async () => {
    const { user } = await registerProvenUser(t);
    expect((await t.call(auth.requestRecoveryCode, { body: { identifier: user.phone }, ip: freshIp() })).status).toBe(
      200,
    );
    const [queued] = await t.deps.database.db.select().from(smsOutbox).where(eq(smsOutbox.toPhone, user.phone));
    expect(queued!.body).toMatch(SIX_DIGITS);
    await drain();

    const [received] = t.deps.smsSimulator!.messages(user.phone);
    const code = SIX_DIGITS.exec(received!.text)![0];
    const row = await smsRow(queued!.id);
    expect(['sent', 'delivered']).toContain(row.status);
    expect(row.body).not.toContain(code);
    expect(row.body).toBe(received!.text.replace(code, '••••••'));

    const listed = await t.request('GET', `/api/admin/messages?channel=sms&q=${user.phone}`, { token: admin });
    expect(listed.status, listed.text).toBe(200);
    const shown = listed.json.messages.find((m: { id: string }) => m.id === queued!.id);
    expect(shown.body).toBe(row.body);
  });

  it('masks a code the gateway refused, and one that expired before it could be sent', async () => {
    const now = t.clock.now();
    const refused = await queueSms(t.deps.database.db, now, {
      to: '256700000403',
      text: 'Your Filamu code is 314159. It works for 10 minutes.',
      purpose: 'password_reset',
      expiresAt: new Date(now.getTime() + 10 * MINUTE),
    });
    const expired = await queueSms(t.deps.database.db, now, {
      to: '256772000777',
      text: 'Your Filamu code to use this number is 271828. It works for 10 minutes.',
      purpose: 'phone_change_code',
      expiresAt: new Date(now.getTime() + MINUTE),
    });
    t.clock.advance(2 * MINUTE);
    await drain();
    expect(await smsRow(refused)).toMatchObject({
      status: 'failed',
      body: 'Your Filamu code is ••••••. It works for 10 minutes.',
    });
    expect(await smsRow(expired)).toMatchObject({
      status: 'failed',
      body: 'Your Filamu code to use this number is ••••••. It works for 10 minutes.',
    });
  });

  it('masks a code sent by email once it has expired', async () => {
    const { body } = await registerProvenUser(t);
    expect((await t.call(auth.requestRecoveryCode, { body: { identifier: body.email }, ip: freshIp() })).status).toBe(
      200,
    );
    const mail = async () =>
      (await t.deps.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, body.email)))[0]!;
    // Still working: kept, since without SMTP the outbox is where it is delivered from.
    await drain();
    expect((await mail()).body).toMatch(SIX_DIGITS);
    t.clock.advance(11 * MINUTE);
    await drain();
    const masked = (await mail()).body;
    expect(masked).not.toMatch(SIX_DIGITS);
    expect(masked).toMatch(/^Your Filamu code is ••••••\./);
  });
});

describe.each(testDatabases)('the SMS simulator on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('takes no message from outside: its messaging API is not a route, so the inbox admins read stays clean', async () => {
    const form = new URLSearchParams({
      username: SMS_SIMULATOR_USERNAME,
      to: '+256772123456',
      message: 'Filamu: your account is locked, call 0700 000 000',
    });
    const res = await t.request('POST', '/sandbox/sms/version1/messaging', {
      rawBody: form.toString(),
      headers: { apikey: SMS_SIMULATOR_API_KEY, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(404);
    const admin = await loginAdmin(t);
    const inbox = await t.call(system.smsSimulatorMessages, { token: admin });
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.json.messages).toEqual([]);
    // The app's own texts still reach it, in process.
    await queueSms(t.deps.database.db, t.clock.now(), { to: '256772123456', text: 'Hello', purpose: 'test' });
    await deliverSmsOutbox(t.deps, t.deps.sms);
    expect((await t.call(system.smsSimulatorMessages, { token: admin })).json.messages).toHaveLength(1);
  });
});
