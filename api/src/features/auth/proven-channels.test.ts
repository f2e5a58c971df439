import { contracts } from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  registerUser,
  type TestApp,
  testDatabases,
  withoutRequestId,
} from '../../../test/harness.ts';
import { stockPlan } from '../../../test/library.ts';
import { mailOutbox, smsOutbox, subscriptionPlans, users } from '../../db/schema.ts';
import { deliverSmsOutbox } from '../sms/outbox.ts';

const { auth, payments: pay } = contracts;
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';
const WRONG_CODE = 'That code is wrong or has expired. Check the message, or ask for a new code.';
const PHONE_ANSWER =
  'If this number is confirmed on a Filamu account, we have sent it a 6-digit code. It works for 10 minutes, and codes sent earlier still work. No code? Ask with your email instead, or contact support on +256 772 000 111.';

let numbers = 0;
/** A fresh Airtel number ending in `last` (the DPO sandbox pays numbers ending 5), typed and canonical. */
function freshNumber(last = '5') {
  numbers += 1;
  const national = `75${String(process.pid % 1000).padStart(3, '0')}${String(numbers).padStart(3, '0')}${last}`;
  return { typed: `0${national}`, canonical: `256${national}` };
}

describe.each(testDatabases)('proven channels on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { dpo: {} });
  });
  afterAll(async () => {
    await t.dpoSandbox?.settle();
    await t.close();
  });

  const db = () => t.deps.database.db;
  const ask = (identifier: string, ip = freshIp()) => t.call(auth.requestRecoveryCode, { body: { identifier }, ip });
  const reset = (identifier: string, code: string) =>
    t.call(auth.resetPassword, { body: { identifier, code, newPassword: NEW_PASSWORD }, ip: freshIp() });
  const sendProof = (token: string) => t.call(auth.requestPhoneProofCode, { token, body: {} });
  const confirm = (token: string, newPhone: string, code: string) =>
    t.call(auth.changePhone, { token, body: { newPhone, code } });
  const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
  const texts = async (phone: string) => {
    while ((await deliverSmsOutbox(t.deps, t.deps.sms)) > 0);
    return t.deps.smsSimulator!.messages(phone).map((m) => m.text);
  };
  /** The 6-digit code in the latest text to this phone. */
  const latestCode = async (phone: string) => {
    const [latest] = await texts(phone);
    const code = /\b(\d{6})\b/.exec(latest ?? '')?.[1];
    if (!code) throw new Error(`no code on ${phone}`);
    return code;
  };
  const mailsTo = (email: string, kind: string) =>
    db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, kind)));

  /** Registration's confirm step through the API: a code to the account's own number, typed back. */
  async function provePhone(token: string, phone: string) {
    const sent = await sendProof(token);
    expect(sent.status, sent.text).toBe(200);
    const done = await confirm(token, phone, await latestCode(phone));
    expect(done.status, done.text).toBe(200);
    return done;
  }

  it('an unproven number gets no recovery code, and the answer is the one an unknown number gets', async () => {
    const { user } = await registerUser(t);
    expect(user.phoneVerified).toBe(false);
    const mine = await ask(user.phone);
    const nobody = await ask('0709555111');
    expect(mine.status).toBe(200);
    expect(withoutRequestId(mine.json)).toEqual(withoutRequestId(nobody.json));
    expect(mine.json.message).toBe(PHONE_ANSWER);
    expect(await db().select().from(smsOutbox).where(eq(smsOutbox.toPhone, user.phone))).toEqual([]);
    expectErrorEnvelope(await reset(user.phone, '123456'), 400, 'bad_request', WRONG_CODE);
  });

  it('confirming the phone after registration (a code by SMS) makes recovery by phone work', async () => {
    const { token, user } = await registerUser(t);
    const proven = await provePhone(token, user.phone);
    expect(proven.json).toMatchObject({ phone: user.phone, phoneVerified: true });
    expect((await t.call(auth.profile, { token })).json.phoneVerified).toBe(true);
    // Once confirmed there is nothing left to confirm.
    expectErrorEnvelope(await sendProof(token), 400, 'bad_request', 'Your phone number is already confirmed.');

    expect((await ask(user.phone)).json.message).toBe(PHONE_ANSWER);
    const done = await reset(user.phone, await latestCode(user.phone));
    expect(done.status, done.text).toBe(200);
    expect(done.json.user.id).toBe(user.id);
  });

  it("a completed mobile-money payment from the account's own number proves it; from another number it does not", async () => {
    const [plan] = await db()
      .insert(subscriptionPlans)
      .values({
        planName: 'Proof plan',
        priceUgx: 5000,
        globalExpiryAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
      })
      .returning();
    await stockPlan(db(), plan!.id);
    async function payFrom(token: string, phone: string) {
      const started = await t.call(pay.initiate, {
        token,
        body: { subscription_plan_id: plan!.id, amount: 5000, currency: 'UGX', description: 'Monthly' },
      });
      expect(started.status, started.text).toBe(201);
      const charged = await t.call(pay.chargeMobile, {
        token,
        body: { transaction_id: started.json.transaction_id, phoneNumber: phone, mno: 'Mobile_Airtel_UG' },
      });
      expect(charged.status, charged.text).toBe(200);
      t.clock.advance(3000);
      const verified = await t.call(pay.verify, { token, params: { token: started.json.dpo_token } });
      expect(verified.json.status).toBe('completed');
    }

    const own = freshNumber();
    const payer = await registerUser(t, { phone: own.typed });
    await payFrom(payer.token, own.typed);
    expect((await userRow(payer.user.id)).phoneVerifiedAt).not.toBeNull();
    expect((await t.call(auth.profile, { token: payer.token })).json.phoneVerified).toBe(true);

    const other = await registerUser(t, { phone: freshNumber().typed });
    await payFrom(other.token, freshNumber().typed);
    expect((await userRow(other.user.id)).phoneVerifiedAt).toBeNull();
  });

  it("a stranger's new request does not kill the owner's open code; requests cool down instead of blocking", async () => {
    const { token, user } = await registerUser(t);
    await provePhone(token, user.phone);
    const outbox = async () =>
      (await db().select().from(smsOutbox).where(eq(smsOutbox.toPhone, user.phone))).filter(
        (row) => row.purpose === 'password_reset',
      );

    await ask(user.phone);
    const ownersCode = await latestCode(user.phone);
    // A stranger asks at once: same answer, nothing new sent (the owner's code is still on the phone).
    expect((await ask(user.phone)).json.message).toBe(PHONE_ANSWER);
    expect(await outbox()).toHaveLength(1);
    // A minute later the stranger's request sends a new, separate code; the owner's still works.
    t.clock.advance(60_000);
    await ask(user.phone);
    expect(await outbox()).toHaveLength(2);
    const strangersCode = await latestCode(user.phone);
    expect(strangersCode).not.toBe(ownersCode);

    // Twelve more asks over the next hour are never refused, and the phone is not flooded.
    for (let i = 0; i < 12; i++) {
      t.clock.advance(5 * 60_000);
      expect((await ask(user.phone)).status).toBe(200);
    }
    expect((await outbox()).length).toBeLessThanOrEqual(10);

    // The owner's code from the start has expired by now; the latest code works, at any time of the attack.
    expect((await reset(user.phone, await latestCode(user.phone))).status).toBe(200);
  });

  it('the owner uses the first code while a stranger has asked for another', async () => {
    const { token, user } = await registerUser(t);
    await provePhone(token, user.phone);
    await ask(user.phone);
    const ownersCode = await latestCode(user.phone);
    t.clock.advance(60_000);
    await ask(user.phone);
    expect(await latestCode(user.phone)).not.toBe(ownersCode);
    const done = await reset(user.phone, ownersCode);
    expect(done.status, done.text).toBe(200);
  });

  it('open codes die when the password, the email or the phone changes', async () => {
    async function openEmailCode(email: string) {
      await ask(email);
      const [mail] = (await mailsTo(email, 'password_reset')).slice(-1);
      return /\b(\d{6})\b/.exec(mail!.body)![1]!;
    }

    const a = await registerUser(t);
    const codeA = await openEmailCode(a.body.email);
    const changed = await t.call(auth.changePassword, {
      token: a.token,
      body: { currentPassword: PASSWORD, newPassword: 'another long passphrase' },
    });
    expect(changed.status).toBe(200);
    expectErrorEnvelope(await reset(a.body.email, codeA), 400, 'bad_request', WRONG_CODE);

    const b = await registerUser(t);
    const codeB = await openEmailCode(b.body.email);
    const newEmail = `moved-${b.body.email}`;
    const moved = await t.call(auth.updateProfile, {
      token: b.token,
      body: { email: newEmail, currentPassword: PASSWORD },
    });
    expect(moved.status, moved.text).toBe(200);
    expectErrorEnvelope(await reset(newEmail, codeB), 400, 'bad_request', WRONG_CODE);

    const c = await registerUser(t);
    const codeC = await openEmailCode(c.body.email);
    const next = freshNumber('7');
    await t.call(auth.requestPhoneChangeCode, {
      token: c.token,
      body: { newPhone: next.typed, currentPassword: PASSWORD },
    });
    expect((await confirm(c.token, next.typed, await latestCode(next.canonical))).status).toBe(200);
    expectErrorEnvelope(await reset(c.body.email, codeC), 400, 'bad_request', WRONG_CODE);
  });

  it('the phone-change check answers taken and free numbers alike, and counts before it answers', async () => {
    const { token } = await registerUser(t);
    const holder = await registerUser(t);
    await provePhone(holder.token, holder.user.phone);
    const free = freshNumber('8');
    const askFor = (newPhone: string) =>
      t.call(auth.requestPhoneChangeCode, { token, body: { newPhone, currentPassword: PASSWORD } });

    const taken = await askFor(holder.body.phone);
    const open = await askFor(free.typed);
    expect(taken.status).toBe(200);
    expect(open.status).toBe(200);
    const shape = (json: { message: string; newPhone: string }) => ({
      ...json,
      message: json.message.replace(/\d{4} \d{3} \d{3}/, 'N'),
      newPhone: 'N',
    });
    expect(shape(taken.json)).toEqual(shape(open.json));

    // The account's limit is met before anything is said about the number: taken or free, the answer is 429.
    for (let i = 0; i < 3; i++) expect((await askFor(freshNumber('8').typed)).status).toBe(200);
    expectErrorEnvelope(await askFor(holder.body.phone), 429, 'rate_limited');
    expectErrorEnvelope(await askFor(freshNumber('8').typed), 429, 'rate_limited');

    // Only whoever holds the phone (and so has the code) learns that a confirmed account has it.
    const code = await latestCode(holder.user.phone);
    const refused = await confirm(token, holder.body.phone, code);
    expectErrorEnvelope(refused, 409, 'conflict', /Another account has confirmed this phone number/);
    expect((await userRow(holder.user.id)).phone).toBe(holder.user.phone);
  });

  it("a squatter's unproven account loses the number to the person who proves it, and is told by email", async () => {
    const number = freshNumber('9');
    const squatter = await registerUser(t, { phone: number.typed });
    // The owner registers with the number: accepted, without it for now, and a code goes to the number.
    const owner = await registerUser(t, { phone: number.typed });
    expect(owner.user).toMatchObject({ phone: null, phoneVerified: false });
    const code = await latestCode(number.canonical);

    const claimed = await confirm(owner.token, number.typed, code);
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.json).toMatchObject({ phone: number.canonical, phoneVerified: true });
    const squatterRow = await userRow(squatter.user.id);
    expect(squatterRow).toMatchObject({ phone: null, phoneVerifiedAt: null });
    const [notice] = await mailsTo(squatter.body.email, 'phone_released');
    expect(notice!.body).toContain('You still sign in with your email');
    // The squatter still signs in by email; the number now signs in the owner.
    const signIn = (identifier: string) =>
      t.call(auth.login, { body: { identifier, password: PASSWORD }, ip: freshIp() });
    expect((await signIn(squatter.body.email)).json.user.id).toBe(squatter.user.id);
    expect((await signIn(number.typed)).json.user.id).toBe(owner.user.id);

    // A proven number cannot be taken the same way: registration refuses it.
    expectErrorEnvelope(
      await t.request('POST', '/api/auth/register', {
        body: { email: `third-${squatter.body.email}`, password: PASSWORD, fullName: 'Third', phone: number.typed },
        ip: freshIp(),
      }),
      409,
      'conflict',
    );
  });

  it('a reset is told on the other channel: by mail after an SMS code, by SMS (to a proven phone) after a mailed one', async () => {
    const bySms = await registerUser(t);
    await provePhone(bySms.token, bySms.user.phone);
    await ask(bySms.user.phone);
    expect((await reset(bySms.user.phone, await latestCode(bySms.user.phone))).status).toBe(200);
    const [mailed] = await mailsTo(bySms.body.email, 'password_reset_notice');
    expect(mailed!.body).toContain('changed with a code sent to your phone');

    const byMail = await registerUser(t);
    await provePhone(byMail.token, byMail.user.phone);
    await ask(byMail.body.email);
    const [mail] = await mailsTo(byMail.body.email, 'password_reset');
    expect((await reset(byMail.body.email, /\b(\d{6})\b/.exec(mail!.body)![1]!)).status).toBe(200);
    expect((await texts(byMail.user.phone))[0]).toBe(
      "Filamu: your password was changed with a code sent to your email. If this wasn't you, call +256 772 000 111.",
    );

    // An unproven phone is not texted.
    const unproven = await registerUser(t);
    await ask(unproven.body.email);
    const [code] = await mailsTo(unproven.body.email, 'password_reset');
    expect((await reset(unproven.body.email, /\b(\d{6})\b/.exec(code!.body)![1]!)).status).toBe(200);
    expect(await texts(unproven.user.phone)).toEqual([]);
  });
});
