import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import {
  ChargeMobileResponse,
  InitiatePaymentResponse,
  PaymentHistory,
  PaymentOptionsResponse,
  VerifyPaymentResponse,
  contracts,
} from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  type TestResponse,
  createTestApp,
  expectErrorEnvelope,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { mailOutbox, payments, pushMessages, smsOutbox, subscriptionPlans, users } from '../../db/schema.ts';
import { deliverSmsOutbox } from '../sms/outbox.ts';
import { messageParts } from '../sms/protocol.ts';
import { GatewayError } from './dpo/errors.ts';
import { type PaymentGateway } from './dpo/port.ts';
import { AMOUNT_MISMATCH, NOT_PURCHASABLE } from './payment-rules.ts';
import { reconcile } from './reconciler.ts';
import { stockPlan } from '../../../test/library.ts';

const { payments: api } = contracts;
const DAY = 86_400_000;
const DELAY = 3000;
const PRICE = 25_000;

type PlanInput = Partial<typeof subscriptionPlans.$inferInsert>;

async function createPlan(t: TestApp, overrides: PlanInput = {}) {
  const [plan] = await t.deps.database.db
    .insert(subscriptionPlans)
    .values({
      planName: `Premium ${Math.random().toString(36).slice(2, 7)}`,
      priceUgx: PRICE,
      globalExpiryAt: new Date(t.clock.now().getTime() + 60 * DAY),
      ...overrides,
    })
    .returning();
  await stockPlan(t.deps.database.db, plan!.id);
  return plan!;
}

/** A signed-in user with a started payment for a fresh plan. */
async function startPayment(t: TestApp, planOverrides: PlanInput = {}) {
  const plan = await createPlan(t, planOverrides);
  const { token, body } = await registerUser(t);
  const res = await t.call(api.initiate, {
    token,
    body: { subscription_plan_id: plan.id, amount: plan.priceUgx, currency: 'UGX', description: 'Monthly' },
  });
  expect(res.status, res.text).toBe(201);
  const started = InitiatePaymentResponse.parse(res.json);
  return { plan, token, email: body.email, started };
}

const charge = (t: TestApp, token: string, transactionId: string, phoneNumber: string, mno = 'MTNmobilemoney') =>
  t.call(api.chargeMobile, { token, body: { transaction_id: transactionId, phoneNumber, mno } });
const verify = (t: TestApp, token: string, dpoToken: string) =>
  t.call(api.verify, { token, params: { token: dpoToken } });
const notify = (t: TestApp, dpoToken: string, query = '') =>
  t.request('POST', `/api/payments/dpo/notify${query}`, {
    headers: { 'content-type': 'application/xml' },
    rawBody: `<?xml version="1.0" encoding="utf-8"?><API3G><Result>000</Result><ResultExplanation>Transaction paid</ResultExplanation><TransactionToken>${dpoToken}</TransactionToken><TransactionAmount>1.00</TransactionAmount></API3G>`,
  });

async function paymentRow(t: TestApp, id: string) {
  const [row] = await t.deps.database.db.select().from(payments).where(eq(payments.id, id));
  return row!;
}
async function userRow(t: TestApp, email: string) {
  const [row] = await t.deps.database.db.select().from(users).where(eq(users.email, email));
  return row!;
}
const receipts = (t: TestApp, email: string) =>
  t.deps.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'receipt')));

/** The SMS receipts queued for the registered phone of the account with this email. */
async function smsReceipts(t: TestApp, email: string) {
  const user = await userRow(t, email);
  return t.deps.database.db
    .select()
    .from(smsOutbox)
    .where(and(eq(smsOutbox.toPhone, user.phone!), eq(smsOutbox.purpose, 'payment_receipt')));
}

function expectVerified(res: TestResponse, status: string) {
  expect(res.status, res.text).toBe(200);
  const body = VerifyPaymentResponse.parse(res.json);
  expect(body.status).toBe(status);
  return body;
}

describe.each(testDatabases)('payments on %s', (kind) => {
  let t: TestApp;
  /** The same database, the DPO push dropped: only client verify, our notify route and the reconciler settle. */
  let quiet: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { dpo: {} });
    quiet = await createTestApp(kind, {
      database: t.deps.database,
      keepDatabaseOpen: true,
      clock: t.clock,
      dpo: { notify: false },
    });
  });
  afterAll(async () => {
    await t.dpoSandbox?.settle();
    await quiet.close();
    await t.close();
  });

  it('takes a payment end to end: initiate, options, charge, verify, subscribed, receipt, history', async () => {
    const { plan, token, email, started } = await startPayment(t);
    expect(started).toMatchObject({ amount: PRICE, currency: 'UGX', plan_name: plan.planName });
    const stored = await paymentRow(t, started.transaction_id);
    expect(stored).toMatchObject({ status: 'pending', amountUgx: PRICE, dpoToken: started.dpo_token });
    expect(stored.expiresAt.getTime() - t.clock.now().getTime()).toBe(15 * 60_000);
    expect(await t.dpoSandbox!.transaction(started.dpo_token)).toMatchObject({
      companyRef: started.transaction_id,
      amount: String(PRICE),
      currency: 'UGX',
    });

    const options = await t.call(api.paymentOptions, { token, params: { token: started.dpo_token } });
    expect(options.status, options.text).toBe(200);
    const { mobileoption } = PaymentOptionsResponse.parse(options.json);
    expect(mobileoption.map((o) => o.paymentname)).toEqual(['MTNmobilemoney', 'Mobile_Airtel_UG']);
    expect(mobileoption.every((o) => o.countryCode === 'UG' && o.instructions.length > 0)).toBe(true);

    const charged = await charge(t, token, started.transaction_id, '0772000005');
    expect(charged.status, charged.text).toBe(200);
    const instructions = ChargeMobileResponse.parse(charged.json);
    expect(instructions.status).toBe('pending');
    expect(instructions.instructions).toContain(`UGX ${PRICE}`);
    expect(await paymentRow(t, started.transaction_id)).toMatchObject({ phone: '256772000005', mno: 'MTNmobilemoney' });

    const early = expectVerified(await verify(t, token, started.dpo_token), 'pending');
    expect(early.subscription_end_date).toBeNull();

    t.clock.advance(DELAY);
    const done = expectVerified(await verify(t, token, started.dpo_token), 'completed');
    expect(done).toMatchObject({
      transaction_id: started.transaction_id,
      plan_name: plan.planName,
      amount: PRICE,
      subscription_end_date: plan.globalExpiryAt.toISOString(),
    });
    await t.dpoSandbox!.settle();
    // Asking again answers the stored result.
    expectVerified(await verify(t, token, started.dpo_token), 'completed');

    const profile = await t.request('GET', '/api/auth/profile', { token });
    expect(profile.json).toMatchObject({
      isSubscribed: true,
      subscriptionPlan: plan.planName,
      subscription_end_date: plan.globalExpiryAt.toISOString(),
    });
    const mails = await receipts(t, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain('UGX 25,000');
    // The short reference, which support can read out and the admin search finds (decision 0180).
    expect(started.reference).toMatch(/^FLM-[2-9A-HJ-NP-Z]{5}$/);
    expect(mails[0]!.body).toContain(`Reference: ${started.reference}`);
    expect(mails[0]!.body).toContain(plan.planName);
    // And by SMS to the registered phone, in one part; the phone receives it through the gateway.
    const texts = await smsReceipts(t, email);
    expect(texts).toHaveLength(1);
    const ref = started.reference;
    // Sixty days after 22 Nov 2026, 12:00 PM in Kampala: the plan's exact end (the texts' own tests pin the wording).
    const expected = `Filamu: UGX 25,000 received for ${plan.planName}. Access until 21 Jan 2027, 12:00 PM. Ref ${ref}.`;
    expect(texts[0]!.body).toBe(expected);
    expect(messageParts(expected)).toBe(1);
    // The email gives the same moment, to the minute.
    expect(mails[0]!.body).toContain('Access until: 21 Jan 2027, 12:00 PM (Kampala time)');
    while ((await deliverSmsOutbox(t.deps, t.deps.sms)) > 0);
    const user = await userRow(t, email);
    expect(t.deps.smsSimulator!.messages(user.phone!).map((m) => m.text)).toEqual([expected]);

    const history = await t.call(api.history, { token });
    expect(history.status).toBe(200);
    expect(PaymentHistory.parse(history.json).payments).toEqual([
      expect.objectContaining({
        transaction_id: started.transaction_id,
        reference: started.reference,
        dpo_token: started.dpo_token,
        status: 'completed',
        amount: PRICE,
        phone: '256772000005',
        mno: 'MTNmobilemoney',
        completed_at: expect.any(String),
      }),
    ]);
    const row = await paymentRow(t, started.transaction_id);
    expect(row).toMatchObject({ status: 'completed', resultCode: '000' });
    expect(row.completedAt).not.toBeNull();
  });

  it.each([
    ['0752000001', 'failed', '901'],
    ['0752000003', 'failed', '904'],
    ['0752000004', 'review', '002'],
  ])('settles a charge to %s as %s and never subscribes', async (phone, status, code) => {
    const { token, email, started } = await startPayment(t);
    expect((await charge(t, token, started.transaction_id, phone, 'Mobile_Airtel_UG')).status).toBe(200);
    t.clock.advance(DELAY);
    const body = expectVerified(await verify(t, token, started.dpo_token), status);
    expect(body.subscription_end_date).toBeNull();
    expect(body.resultExplanation.length).toBeGreaterThan(0);
    expect(await paymentRow(t, started.transaction_id)).toMatchObject({ status, resultCode: code, completedAt: null });
    expect((await userRow(t, email)).subscriptionEndDate).toBeNull();
    expect(await receipts(t, email)).toHaveLength(0);
    expect(await smsReceipts(t, email)).toHaveLength(0);
    // Later checks never move it again.
    t.clock.advance(60 * 60_000);
    await reconcile(t.deps);
    expectVerified(await verify(t, token, started.dpo_token), status);
    expect((await userRow(t, email)).subscriptionEndDate).toBeNull();
  });

  it('keeps an unanswered prompt (last digit 2) pending, then the reconciler expires it after the PTL', async () => {
    const { token, email, started } = await startPayment(t);
    expect((await charge(t, token, started.transaction_id, '256772000002')).status).toBe(200);
    t.clock.advance(DELAY);
    expectVerified(await verify(t, token, started.dpo_token), 'pending');
    t.clock.advance(60_000);
    await reconcile(t.deps);
    expect((await paymentRow(t, started.transaction_id)).status).toBe('pending');

    t.clock.advance(15 * 60_000);
    await reconcile(t.deps);
    const row = await paymentRow(t, started.transaction_id);
    expect(row).toMatchObject({ status: 'expired', resultCode: '903' });
    expectVerified(await verify(t, token, started.dpo_token), 'expired');
    expect((await userRow(t, email)).subscriptionEndDate).toBeNull();
  });

  it('refuses a client amount that differs from the plan price and charges the plan price otherwise', async () => {
    const plan = await createPlan(t);
    const { token } = await registerUser(t);
    const before = await t.deps.database.db.select().from(payments);
    for (const amount of [1000, '24999', 25_001, 'abc', '-25000', 0]) {
      const res = await t.call(api.initiate, { token, body: { subscription_plan_id: plan.id, amount } });
      expectErrorEnvelope(res, 400, 'bad_request', AMOUNT_MISMATCH);
    }
    expect(await t.deps.database.db.select().from(payments)).toHaveLength(before.length);
    for (const amount of [PRICE, '25000', '25000.00', undefined]) {
      const res = await t.call(api.initiate, { token, body: { subscription_plan_id: plan.id, amount } });
      expect(res.status, res.text).toBe(201);
      expect(res.json.amount).toBe(PRICE);
      expect((await paymentRow(t, res.json.transaction_id)).amountUgx).toBe(PRICE);
    }
    const wrongCurrency = await t.call(api.initiate, {
      token,
      body: { subscription_plan_id: plan.id, currency: 'USD' },
    });
    expectErrorEnvelope(wrongCurrency, 400, 'validation_error');
  });

  it.each([
    ['inactive', { isActive: false }],
    ['hidden', { isVisible: false }],
    ['expired', { globalExpiryAt: new Date('2026-01-01T00:00:00Z') }],
    ['free', { priceUgx: 0 }],
  ] as const)('refuses to sell an %s plan', async (_name, overrides) => {
    const plan = await createPlan(t, overrides);
    const { token } = await registerUser(t);
    const res = await t.call(api.initiate, { token, body: { subscription_plan_id: plan.id } });
    expectErrorEnvelope(res, 409, 'conflict', NOT_PURCHASABLE);
  });

  it('refuses a plan that does not exist', async () => {
    const { token } = await registerUser(t);
    const res = await t.call(api.initiate, {
      token,
      body: { subscription_plan_id: '7f1c9a52-3b1e-4c6d-9a8b-2e5f4d3c2b1a' },
    });
    expectErrorEnvelope(res, 409, 'conflict', NOT_PURCHASABLE);
  });

  it("answers 404 for someone else's token or transaction, and lists only one's own payments", async () => {
    const { token: owner, started } = await startPayment(t);
    const { token: other } = await registerUser(t);
    expectErrorEnvelope(
      await t.call(api.paymentOptions, { token: other, params: { token: started.dpo_token } }),
      404,
      'not_found',
    );
    expectErrorEnvelope(await verify(t, other, started.dpo_token), 404, 'not_found');
    expectErrorEnvelope(await charge(t, other, started.transaction_id, '0772000005'), 404, 'not_found');
    expectErrorEnvelope(await verify(t, other, 'NOT-A-TOKEN'), 404, 'not_found');
    expect((await t.call(api.history, { token: other })).json).toEqual({ payments: [] });
    expect((await t.dpoSandbox!.transaction(started.dpo_token))!.charge).toBeUndefined();
    // Only once a prompt was asked for is the payment the owner's to see (decision 0180).
    expect((await t.call(api.history, { token: owner })).json.payments).toHaveLength(0);
    expect((await charge(t, owner, started.transaction_id, '0772000005')).status).toBe(200);
    expect((await t.call(api.history, { token: owner })).json.payments).toHaveLength(1);
    expect((await t.call(api.history, { token: other })).json).toEqual({ payments: [] });
  });

  it('refuses charging a payment that is no longer pending', async () => {
    const { token, started } = await startPayment(t);
    expect((await charge(t, token, started.transaction_id, '0772000005')).status).toBe(200);
    t.clock.advance(DELAY);
    expectVerified(await verify(t, token, started.dpo_token), 'completed');
    await t.dpoSandbox!.settle();
    expectErrorEnvelope(await charge(t, token, started.transaction_id, '0772000005'), 409, 'conflict');
    expectErrorEnvelope(
      await t.call(api.paymentOptions, { token, params: { token: started.dpo_token } }),
      409,
      'conflict',
    );
  });

  it('activates a paid payment whose page was closed on the next reconciliation pass', async () => {
    const { token, email, plan, started } = await startPayment(quiet);
    expect((await charge(quiet, token, started.transaction_id, '0772000005')).status).toBe(200);
    quiet.clock.advance(30_000);
    const report = await reconcile(quiet.deps);
    expect(report.checked).toBeGreaterThanOrEqual(1);
    expect(await paymentRow(quiet, started.transaction_id)).toMatchObject({ status: 'completed' });
    const user = await userRow(quiet, email);
    expect(user.subscriptionPlanId).toBe(plan.id);
    expect(user.subscriptionEndDate?.toISOString()).toBe(plan.globalExpiryAt.toISOString());
    expect(await receipts(quiet, email)).toHaveLength(1);
    const profile = await quiet.request('GET', '/api/auth/profile', { token });
    expect(profile.json).toMatchObject({ isSubscribed: true, subscriptionPlan: plan.planName });
  });

  it('treats the DPO push as a prompt: unknown tokens 404, a paid token is verified and activated', async () => {
    expectErrorEnvelope(await notify(quiet, 'C0FFEE00-0000-0000-0000-000000000000'), 404, 'not_found');
    const empty = await quiet.request('POST', '/api/payments/dpo/notify', {
      headers: { 'content-type': 'text/plain' },
      rawBody: 'nothing here',
    });
    expectErrorEnvelope(empty, 400, 'bad_request');

    const { token, email, started } = await startPayment(quiet);
    // A push for an unpaid token changes nothing: DPO is asked, and says not paid.
    const early = await notify(quiet, started.dpo_token);
    expect(early.status).toBe(200);
    expect(early.text).toBe('OK');
    expect((await paymentRow(quiet, started.transaction_id)).status).toBe('pending');

    expect((await charge(quiet, token, started.transaction_id, '0772000005')).status).toBe(200);
    quiet.clock.advance(DELAY);
    const res = await quiet.request('POST', '/api/payments/dpo/notify', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: `Result=000&TransactionToken=${started.dpo_token}`,
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('OK');
    expect((await paymentRow(quiet, started.transaction_id)).status).toBe('completed');
    expect((await userRow(quiet, email)).subscriptionEndDate).not.toBeNull();
    // A late duplicate push is acknowledged and changes nothing.
    expect((await notify(quiet, started.dpo_token)).text).toBe('OK');
    expect(await receipts(quiet, email)).toHaveLength(1);
    expect(await smsReceipts(quiet, email)).toHaveLength(1);
  });

  it('requires the notify secret when one is configured', async () => {
    const secret = 'notify-secret-for-tests-0123456789';
    const guarded = await createTestApp(kind, {
      database: t.deps.database,
      keepDatabaseOpen: true,
      clock: t.clock,
      dpo: { notify: false },
      env: { DPO_NOTIFY_SECRET: secret },
    });
    try {
      const { started } = await startPayment(guarded);
      expectErrorEnvelope(await notify(guarded, started.dpo_token), 403, 'forbidden');
      expectErrorEnvelope(await notify(guarded, started.dpo_token, '?secret=wrong'), 403, 'forbidden');
      expect((await notify(guarded, started.dpo_token, `?secret=${secret}`)).text).toBe('OK');
    } finally {
      await guarded.close();
    }
  });

  it('activates exactly once under 20 verifies, a push and 2 reconciler runs at the same time (5 rounds)', async () => {
    for (let round = 0; round < 5; round++) {
      const { token, email, plan, started } = await startPayment(quiet);
      const browser = createECDH('prime256v1');
      browser.generateKeys();
      const subscription = {
        endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`,
        keys: { p256dh: browser.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
      };
      expect((await quiet.call(contracts.push.subscribe, { token, body: subscription })).status).toBe(201);
      expect((await charge(quiet, token, started.transaction_id, '0772000005')).status).toBe(200);
      quiet.clock.advance(60_000);
      const [verifies, pushed, runs] = await Promise.all([
        Promise.all(Array.from({ length: 20 }, () => verify(quiet, token, started.dpo_token))),
        notify(quiet, started.dpo_token),
        Promise.all([reconcile(quiet.deps), reconcile(quiet.deps)]),
      ]);
      for (const res of verifies) expectVerified(res, 'completed');
      expect(pushed.status).toBe(200);
      expect(pushed.text).toBe('OK');
      expect(runs.reduce((n, r) => n + r.failedChecks, 0)).toBe(0);

      const rows = await quiet.deps.database.db.select().from(payments).where(eq(payments.dpoToken, started.dpo_token));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe('completed');
      // The receipt is queued in the activation's transaction: one receipt is one activation.
      expect(await receipts(quiet, email)).toHaveLength(1);
      expect(await smsReceipts(quiet, email)).toHaveLength(1);
      const user = await userRow(quiet, email);
      // So is the push for a payer who closed the page: one, to the browser they subscribed.
      const pushes = await quiet.deps.database.db.select().from(pushMessages).where(eq(pushMessages.userId, user.id));
      expect(pushes.map((p) => [p.kind, p.url, p.status])).toEqual([['payment_confirmed', '/dashboard', 'queued']]);
      const completed = await quiet.deps.database.db
        .select()
        .from(payments)
        .where(and(eq(payments.userId, user.id), eq(payments.status, 'completed')));
      expect(completed).toHaveLength(1);
      expect(user.subscriptionPlanId).toBe(plan.id);
      expect(user.subscriptionEndDate?.toISOString()).toBe(plan.globalExpiryAt.toISOString());
    }
  });
});

describe('payments when DPO fails', () => {
  let t: TestApp;
  let createFails = true;
  const down = (operation: 'createToken' | 'verifyToken' | 'ChargeTokenMobile') =>
    new GatewayError({ kind: 'transport', operation, message: 'DPO: timed out', attempts: 2 });
  const gateway: PaymentGateway = {
    createToken: async () => {
      if (createFails) throw down('createToken');
      return {
        transToken: `TOKEN-${Math.random()}`,
        transRef: 'R1',
        code: '000',
        explanation: 'Created',
        expiresAt: new Date(),
      };
    },
    getMobilePaymentOptions: () => Promise.reject(down('createToken')),
    chargeTokenMobile: () =>
      Promise.reject(
        new GatewayError({
          kind: 'protocol',
          operation: 'ChargeTokenMobile',
          dpoCode: '955',
          explanation: 'Phone number is invalid',
          message: 'DPO ChargeTokenMobile answered 955',
          attempts: 1,
        }),
      ),
    verifyToken: () => Promise.reject(down('verifyToken')),
    cancelToken: () => Promise.reject(down('createToken')),
  };
  beforeAll(async () => {
    t = await createTestApp('pglite', { payments: { gateway, sandbox: null, bindNotify: () => {} } });
  });
  afterAll(() => t.close());

  it('marks the payment failed and answers 503 when createToken fails', async () => {
    createFails = true;
    const plan = await createPlan(t);
    const { token } = await registerUser(t);
    const res = await t.call(api.initiate, { token, body: { subscription_plan_id: plan.id } });
    expectErrorEnvelope(res, 503, 'unavailable');
    expect(res.text).not.toContain('timed out');
    const rows = await t.deps.database.db.select().from(payments).where(eq(payments.planId, plan.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'failed', dpoToken: null });
    // Never charged, so never the customer's: the history stays empty (decision 0180).
    expect((await t.call(api.history, { token })).json.payments).toEqual([]);
  });

  it("answers DPO's 95x charge refusals as 400 with its explanation, and 503 when verify cannot reach DPO", async () => {
    createFails = false;
    const { token, started } = await startPayment(t);
    expectErrorEnvelope(
      await charge(t, token, started.transaction_id, '0772000005'),
      400,
      'bad_request',
      'Phone number is invalid',
    );
    expectErrorEnvelope(await verify(t, token, started.dpo_token), 503, 'unavailable');
    expect((await paymentRow(t, started.transaction_id)).status).toBe('pending');
    t.clock.advance(60 * 60_000);
    const report = await reconcile(t.deps);
    expect(report.failedChecks).toBeGreaterThanOrEqual(1);
    expect((await paymentRow(t, started.transaction_id)).status).toBe('pending');
  });
});
