import { AdminPaymentList, AdminPaymentResult, InitiatePaymentResponse, contracts } from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ADMIN,
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { mailOutbox, payments, smsOutbox, subscriptionPlans, users } from '../../db/schema.ts';
import { GatewayError } from './dpo/errors.ts';
import { reconcile } from './reconciler.ts';
import { stockPlan } from '../../../test/library.ts';

const { payments: api, adminPayments: admin } = contracts;
const DAY = 86_400_000;
const DELAY = 3000;
const PRICE = 25_000;

/** Sandbox phone numbers: the last digit decides what DPO does (dpo/sandbox.ts). */
const PHONE = { paid: '0772000005', declined: '0772000001', never: '0772000002', offAmount: '0772000004' };

async function createPlan(t: TestApp, overrides: Partial<typeof subscriptionPlans.$inferInsert> = {}) {
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

/** A new user who started paying for a fresh plan and had the prompt sent to `phone`. */
async function chargedPayment(t: TestApp, phone: string, fullName?: string) {
  const plan = await createPlan(t);
  const { token, body } = await registerUser(t, fullName ? { fullName } : {});
  const res = await t.call(api.initiate, { token, body: { subscription_plan_id: plan.id } });
  expect(res.status, res.text).toBe(201);
  const started = InitiatePaymentResponse.parse(res.json);
  const charged = await t.call(api.chargeMobile, {
    token,
    body: { transaction_id: started.transaction_id, phoneNumber: phone, mno: 'MTNmobilemoney' },
  });
  expect(charged.status, charged.text).toBe(200);
  return { plan, token, email: body.email, id: started.transaction_id, dpoToken: started.dpo_token };
}

/** A payment DPO reported over/underpaid (002), settled by the payer's own verify. */
async function reviewPayment(t: TestApp, fullName?: string) {
  const payment = await chargedPayment(t, PHONE.offAmount, fullName);
  t.clock.advance(DELAY);
  const verified = await t.call(api.verify, { token: payment.token, params: { token: payment.dpoToken } });
  expect(verified.json?.status, verified.text).toBe('review');
  return payment;
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

/** SMS receipts to the payer's registered phone (decision 0149): one per activation, like the mail. */
async function smsReceipts(t: TestApp, email: string) {
  const { phone } = await userRow(t, email);
  return t.deps.database.db
    .select()
    .from(smsOutbox)
    .where(and(eq(smsOutbox.toPhone, phone!), eq(smsOutbox.purpose, 'payment_receipt')));
}

describe.each(testDatabases)('admin payments on %s', (kind) => {
  let t: TestApp;
  /** Same database and clock, DPO's push dropped: a paid payment stays pending until someone asks DPO. */
  let quiet: TestApp;
  let adminToken: string;
  const list = async (query: Record<string, unknown>) => {
    const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    const res = await t.request('GET', `/api/admin/payments?${params}`, { token: adminToken });
    expect(res.status, res.text).toBe(200);
    return AdminPaymentList.parse(res.json);
  };
  const resolve = (id: string, body: unknown, token = adminToken) =>
    t.call(admin.resolvePayment, { token, params: { id }, body });
  const recheck = (app: TestApp, id: string, token = adminToken) =>
    app.call(admin.recheckPayment, { token, params: { id } });

  beforeAll(async () => {
    t = await createTestApp(kind, { dpo: {} });
    quiet = await createTestApp(kind, {
      database: t.deps.database,
      keepDatabaseOpen: true,
      clock: t.clock,
      dpo: { notify: false },
    });
    adminToken = await loginAdmin(t);
  });
  afterAll(async () => {
    await t.dpoSandbox?.settle();
    await quiet.close();
    await t.close();
  });

  it('lists payments newest first with payer, plan, DPO details and counts; filters by status and search; pages', async () => {
    const batch = `Batch ${Math.random().toString(36).slice(2, 8)}`;
    const review = await reviewPayment(t, `${batch} Review`);
    t.clock.advance(1000);
    const declined = await chargedPayment(t, PHONE.declined, `${batch} Declined`);
    t.clock.advance(DELAY);
    await t.call(api.verify, { token: declined.token, params: { token: declined.dpoToken } });
    t.clock.advance(1000);
    const pending = await chargedPayment(t, PHONE.never, `${batch} Pending`);

    const all = await list({ search: batch });
    expect(all.payments.map((p) => p.id)).toEqual([pending.id, declined.id, review.id]);
    expect(all.counts).toEqual({ all: 3, pending: 1, completed: 0, failed: 1, expired: 0, review: 1 });
    expect(all).toMatchObject({ page: 1, pageSize: 25, total: 3, pageCount: 1 });
    expect(all.needsReview).toBeGreaterThanOrEqual(1);

    const reviewed = all.payments[2]!;
    expect(reviewed).toMatchObject({
      status: 'review',
      amount: PRICE,
      currency: 'UGX',
      phone: '256772000004',
      mno: 'MTNmobilemoney',
      dpoToken: review.dpoToken,
      resultCode: '002',
      explanation: 'Transaction overpaid/underpaid',
      // The sandbox reports 1,000 less than asked for an "over/underpaid" charge.
      reportedAmount: String(PRICE - 1000) + '.00',
      reportedCurrency: 'UGX',
      user: { email: review.email, fullName: `${batch} Review` },
      planName: review.plan.planName,
      resolution: null,
    });
    expect(reviewed.dpoReference).toMatch(/^R[0-9A-F]+$/);
    expect(reviewed.settledAt).not.toBeNull();
    expect(all.payments[0]).toMatchObject({ status: 'pending', settledAt: null });

    const onlyReview = await list({ search: batch, status: 'review' });
    expect(onlyReview.payments.map((p) => p.id)).toEqual([review.id]);
    expect(onlyReview.total).toBe(1);
    expect(onlyReview.counts.all).toBe(3);

    expect((await list({ search: declined.email })).payments.map((p) => p.id)).toEqual([declined.id]);
    expect((await list({ search: '256772000002', status: 'pending' })).payments.map((p) => p.id)).toContain(pending.id);
    expect((await list({ search: review.dpoToken })).payments.map((p) => p.id)).toEqual([review.id]);

    const second = await list({ search: batch, pageSize: 2, page: 2 });
    expect(second).toMatchObject({ page: 2, pageSize: 2, total: 3, pageCount: 2 });
    expect(second.payments.map((p) => p.id)).toEqual([review.id]);

    const bad = await t.request('GET', '/api/admin/payments?status=lost', { token: adminToken });
    expectErrorEnvelope(bad, 400, 'validation_error');
  });

  it('lists no payment page opened and left, and finds a payment by a local number or a reference typed without its dash', async () => {
    const batch = `Left ${Math.random().toString(36).slice(2, 8)}`;
    const plan = await createPlan(t);
    const { token } = await registerUser(t, { fullName: `${batch} Opened` });
    const opened = await t.call(api.initiate, { token, body: { subscription_plan_id: plan.id } });
    expect(opened.status, opened.text).toBe(201);
    const charged = await chargedPayment(t, '0772000012', `${batch} Charged`);

    const listed = await list({ search: batch });
    expect(listed.payments.map((p) => p.id)).toEqual([charged.id]);
    expect(listed.counts).toMatchObject({ all: 1, pending: 1, expired: 0 });

    const reference = listed.payments[0]!.reference;
    for (const typed of ['0772 000 012', '0772000012', '+256 772 000012']) {
      expect(
        (await list({ search: typed })).payments.map((p) => p.id),
        typed,
      ).toContain(charged.id);
    }
    for (const typed of [reference.replace('-', '').toLowerCase(), reference.toLowerCase(), reference]) {
      expect(
        (await list({ search: typed })).payments.map((p) => p.id),
        typed,
      ).toEqual([charged.id]);
    }
  });

  it('activates a review payment with a note: the payer gets the plan and a receipt, the decision is recorded', async () => {
    const payment = await reviewPayment(t);
    const res = await resolve(payment.id, { action: 'activate', note: '  Checked DPO: paid 24,000, agreed.  ' });
    expect(res.status, res.text).toBe(200);
    const { payment: after, message } = AdminPaymentResult.parse(res.json);
    expect(message).toBe('Subscription activated.');
    expect(after).toMatchObject({
      status: 'completed',
      resolution: {
        action: 'activated',
        note: 'Checked DPO: paid 24,000, agreed.',
        at: t.clock.now().toISOString(),
        by: { email: ADMIN.email },
      },
    });
    const user = await userRow(t, payment.email);
    expect(user.subscriptionPlanId).toBe(payment.plan.id);
    expect(user.subscriptionEndDate?.toISOString()).toBe(payment.plan.globalExpiryAt.toISOString());
    expect(await receipts(t, payment.email)).toHaveLength(1);
    const listed = await list({ search: payment.email });
    expect(listed.payments[0]!.resolution?.action).toBe('activated');

    const again = await resolve(payment.id, { action: 'refuse', note: 'second thoughts' });
    expectErrorEnvelope(again, 409, 'conflict', 'This payment was already resolved (activated).');
  });

  it('refuses a review payment: failed, recorded, no subscription', async () => {
    const payment = await reviewPayment(t);
    const res = await resolve(payment.id, { action: 'refuse', note: 'Underpaid; refund sent by MTN.' });
    expect(res.status, res.text).toBe(200);
    const body = AdminPaymentResult.parse(res.json);
    expect(body.message).toBe('Payment refused.');
    expect(body.payment).toMatchObject({
      status: 'failed',
      resolution: { action: 'refused', note: 'Underpaid; refund sent by MTN.' },
    });
    expect((await userRow(t, payment.email)).subscriptionPlanId).toBeNull();
    expect(await receipts(t, payment.email)).toHaveLength(0);
  });

  it('lets exactly one of two simultaneous decisions through (3 rounds)', async () => {
    for (let round = 0; round < 3; round++) {
      const payment = await reviewPayment(t);
      const second = round === 2 ? 'refuse' : 'activate';
      const answers = await Promise.all([
        resolve(payment.id, { action: 'activate', note: 'first click' }),
        resolve(payment.id, { action: second, note: 'second click' }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const [row] = await t.deps.database.db.select().from(payments).where(eq(payments.id, payment.id));
      const won = answers.find((a) => a.status === 200)!.json.payment.resolution.note;
      expect(row!.reviewNote).toBe(won);
      const activated = row!.reviewResolution === 'activated';
      expect(await receipts(t, payment.email)).toHaveLength(activated ? 1 : 0);
      expect(await smsReceipts(t, payment.email)).toHaveLength(activated ? 1 : 0);
      expect((await userRow(t, payment.email)).subscriptionPlanId).toBe(activated ? payment.plan.id : null);
    }
  });

  it('refuses to resolve what is not under review, without a note, or unknown', async () => {
    const pending = await chargedPayment(t, PHONE.never);
    expectErrorEnvelope(
      await resolve(pending.id, { action: 'activate', note: 'why not' }),
      409,
      'conflict',
      'Only payments waiting for review can be resolved. This one is pending.',
    );
    const review = await reviewPayment(t);
    expectErrorEnvelope(await resolve(review.id, { action: 'activate', note: '   ' }), 400, 'validation_error');
    expectErrorEnvelope(
      await resolve(review.id, { action: 'activate', note: 'x'.repeat(501) }),
      400,
      'validation_error',
    );
    expectErrorEnvelope(await resolve(review.id, { action: 'grant', note: 'ok' }), 400, 'validation_error');
    expectErrorEnvelope(
      await resolve('00000000-0000-4000-8000-000000000000', { action: 'refuse', note: 'ok' }),
      404,
      'not_found',
    );
    expect((await list({ search: review.email })).payments[0]!.status).toBe('review');
  });

  it('will not activate a plan that has ended; the payment stays under review', async () => {
    const payment = await reviewPayment(t);
    await t.deps.database.db
      .update(subscriptionPlans)
      .set({ globalExpiryAt: t.clock.now() })
      .where(eq(subscriptionPlans.id, payment.plan.id));
    expectErrorEnvelope(
      await resolve(payment.id, { action: 'activate', note: 'ok' }),
      409,
      'conflict',
      /plan of this payment has ended/,
    );
    expect((await list({ search: payment.email })).payments[0]).toMatchObject({ status: 'review', resolution: null });
  });

  it('re-checks a pending payment with DPO: paid → completed and activated once; unpaid → still pending', async () => {
    const paid = await chargedPayment(quiet, PHONE.paid);
    const unpaid = await chargedPayment(quiet, PHONE.never);
    quiet.clock.advance(DELAY);

    const res = await recheck(quiet, paid.id);
    expect(res.status, res.text).toBe(200);
    const body = AdminPaymentResult.parse(res.json);
    expect(body.message).toBe('Completed: subscription activated.');
    expect(body.payment).toMatchObject({ status: 'completed', resultCode: '000', resolution: null });
    expect((await userRow(quiet, paid.email)).subscriptionPlanId).toBe(paid.plan.id);
    expect(await receipts(quiet, paid.email)).toHaveLength(1);
    expectErrorEnvelope(
      await recheck(quiet, paid.id),
      409,
      'conflict',
      'Only pending payments can be checked with DPO. This one is completed.',
    );

    const still = await recheck(quiet, unpaid.id);
    expect(still.status, still.text).toBe(200);
    expect(AdminPaymentResult.parse(still.json)).toMatchObject({
      message: 'Still pending: DPO has not received the money yet.',
      payment: { status: 'pending', resultCode: '900' },
    });
  });

  it('activates once when re-checks race the reconciler and the payer’s verify', async () => {
    const paid = await chargedPayment(quiet, PHONE.paid);
    quiet.clock.advance(60_000);
    const [checks] = await Promise.all([
      Promise.all([recheck(quiet, paid.id), recheck(quiet, paid.id), recheck(quiet, paid.id)]),
      reconcile(quiet.deps),
      quiet.call(api.verify, { token: paid.token, params: { token: paid.dpoToken } }),
    ]);
    // Each click either settled it or found it settled by someone else: never a second activation.
    for (const res of checks) expect([200, 409]).toContain(res.status);
    expect(await receipts(quiet, paid.email)).toHaveLength(1);
    expect(await smsReceipts(quiet, paid.email)).toHaveLength(1);
    expect((await list({ search: paid.email })).payments[0]!.status).toBe('completed');
  });

  it('answers 503 with the generic message when DPO cannot be reached, and leaves the payment pending', async () => {
    const payment = await chargedPayment(quiet, PHONE.paid);
    quiet.clock.advance(DELAY);
    const spy = vi
      .spyOn(quiet.deps.payments, 'verifyToken')
      .mockRejectedValueOnce(
        new GatewayError({ kind: 'transport', operation: 'verifyToken', message: 'DPO: timed out', attempts: 2 }),
      );
    try {
      expectErrorEnvelope(
        await recheck(quiet, payment.id),
        503,
        'unavailable',
        'The payment service is not available right now. Please try again in a moment.',
      );
    } finally {
      spy.mockRestore();
    }
    expect((await list({ search: payment.email })).payments[0]!.status).toBe('pending');
  });

  it('is for admins only', async () => {
    const payment = await reviewPayment(t);
    const { token } = await registerUser(t);
    expectErrorEnvelope(await t.call(admin.listPayments, { token }), 403, 'forbidden');
    expectErrorEnvelope(await resolve(payment.id, { action: 'activate', note: 'me' }, token), 403, 'forbidden');
    expectErrorEnvelope(await recheck(t, payment.id, token), 403, 'forbidden');
    expectErrorEnvelope(await t.call(admin.listPayments), 401, 'unauthenticated');
    expect((await list({ search: payment.email })).payments[0]!.status).toBe('review');
  });
});
