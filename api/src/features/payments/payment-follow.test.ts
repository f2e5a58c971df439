import {
  AdminPaymentList,
  InitiatePaymentResponse,
  PAYMENT_REFERENCE_ALPHABET,
  PaymentHistory,
  VerifyPaymentResponse,
  WaitingPaymentResponse,
  contracts,
} from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { stockPlan } from '../../../test/library.ts';
import { dpoSandboxTransactions, mailOutbox, payments, subscriptionPlans, users } from '../../db/schema.ts';
import { CANCELLED_EXPLANATION, PAID_BEFORE_CANCEL } from './cancel.ts';
import { FIRST_CHECK_MS } from './payment-rules.ts';
import { reconcile } from './reconciler.ts';
import { insertWithReference } from './reference.ts';
import { PAID_AFTER_CANCEL } from './waiting.ts';

const { payments: api } = contracts;
const DAY = 86_400_000;
/** The sandbox decides a charge this long after it (the harness's default). */
const DELAY = 3000;
const REFERENCE = new RegExp(`^FLM-[${PAYMENT_REFERENCE_ALPHABET}]{5}$`);

async function createPlan(t: TestApp, price = 25_000) {
  const [plan] = await t.deps.database.db
    .insert(subscriptionPlans)
    .values({
      planName: `Premium ${Math.random().toString(36).slice(2, 7)}`,
      priceUgx: price,
      globalExpiryAt: new Date(t.clock.now().getTime() + 60 * DAY),
    })
    .returning();
  await stockPlan(t.deps.database.db, plan!.id);
  return plan!;
}

async function initiate(t: TestApp, token: string, planId: string) {
  return t.call(api.initiate, { token, body: { subscription_plan_id: planId } });
}

async function start(t: TestApp) {
  const plan = await createPlan(t);
  const { token, body } = await registerUser(t);
  const res = await initiate(t, token, plan.id);
  expect(res.status, res.text).toBe(201);
  return { plan, token, email: body.email, started: InitiatePaymentResponse.parse(res.json) };
}

const charge = (t: TestApp, token: string, transactionId: string, phoneNumber: string, mno = 'MTNmobilemoney') =>
  t.call(api.chargeMobile, { token, body: { transaction_id: transactionId, phoneNumber, mno } });
const waiting = async (t: TestApp, token: string) =>
  WaitingPaymentResponse.parse((await t.call(api.waiting, { token })).json).payment;
const history = async (t: TestApp, token: string) =>
  PaymentHistory.parse((await t.call(api.history, { token })).json).payments;
const cancel = (t: TestApp, token: string, id: string) => t.call(api.cancel, { token, params: { transaction_id: id } });

async function row(t: TestApp, id: string) {
  const [found] = await t.deps.database.db.select().from(payments).where(eq(payments.id, id));
  return found!;
}

describe.each(testDatabases)('payments a person can follow on %s', (kind) => {
  let t: TestApp;
  /** The same database with DPO's push dropped: nothing settles unless asked. */
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

  it('gives each payment a short reference once, unique under concurrent starts', async () => {
    const plan = await createPlan(t);
    const people = await Promise.all(Array.from({ length: 12 }, () => registerUser(t)));
    const started = await Promise.all(people.map((p) => initiate(t, p.token, plan.id)));
    const references = started.map((res) => {
      expect(res.status, res.text).toBe(201);
      return InitiatePaymentResponse.parse(res.json).reference;
    });
    for (const reference of references) expect(reference).toMatch(REFERENCE);
    expect(new Set(references).size).toBe(references.length);

    // Charged and settled, the reference does not change.
    const first = InitiatePaymentResponse.parse(started[0]!.json);
    expect((await charge(t, people[0]!.token, first.transaction_id, '0772000005')).status).toBe(200);
    t.clock.advance(FIRST_CHECK_MS + 1);
    await reconcile(t.deps);
    const settled = await row(t, first.transaction_id);
    expect(settled.status).toBe('completed');
    expect(settled.reference).toBe(first.reference);
  });

  it('takes another reference when the one drawn is taken, and gives up after three clashes', async () => {
    const { plan } = await start(t);
    const [taken] = await t.deps.database.db.select().from(payments).where(eq(payments.planId, plan.id));
    const draws = [taken!.reference, 'FLM-ZZZZ9'.replace('ZZZZ9', randomCode())];
    const insert = (reference: string) =>
      t.deps.database.db
        .insert(payments)
        .values({ ...taken!, id: undefined, dpoToken: null, reference })
        .returning();
    const [inserted] = await insertWithReference(insert, () => draws.shift()!);
    expect(inserted!.reference).not.toBe(taken!.reference);
    await expect(insertWithReference(insert, () => taken!.reference)).rejects.toThrow();
  });

  it('a payment page opened and left is never in the history; once a prompt is asked for it is', async () => {
    const { token, started } = await start(t);
    // The method step is shown; the sandbox says so, for the screen to show its test numbers (decision 0182).
    const options = await t.call(api.paymentOptions, { token, params: { token: started.dpo_token } });
    expect(options.json).toMatchObject({ sandbox: true });
    expect(await history(t, token)).toEqual([]);
    expect(await waiting(t, token)).toBeNull();
    expect((await charge(t, token, started.transaction_id, '0772000006')).status).toBe(200);
    expect(await history(t, token)).toEqual([
      expect.objectContaining({
        transaction_id: started.transaction_id,
        reference: started.reference,
        status: 'pending',
      }),
    ]);
  });

  it('shows the payment waiting for the phone and refuses a second purchase while it waits', async () => {
    const { token, started, plan } = await start(t);
    expect((await charge(t, token, started.transaction_id, '0772000006')).status).toBe(200);
    expect(await waiting(t, token)).toMatchObject({
      transaction_id: started.transaction_id,
      reference: started.reference,
      plan_name: plan.planName,
      amount: 25_000,
      mno: 'MTNmobilemoney',
      phone: '256772000006',
    });
    const other = await createPlan(t, 40_000);
    const again = await initiate(t, token, other.id);
    expectErrorEnvelope(again, 409, 'payment_pending');
    expect(again.json.error.message).toContain(started.reference);
    expect(again.json.error.message).toMatch(/send the prompt again, or cancel it/);
  });

  it('two payments charged at once: exactly one prompt goes out', async () => {
    const plan = await createPlan(t);
    const { token } = await registerUser(t);
    const a = InitiatePaymentResponse.parse((await initiate(t, token, plan.id)).json);
    const b = InitiatePaymentResponse.parse((await initiate(t, token, plan.id)).json);
    const results = await Promise.all([
      charge(t, token, a.transaction_id, '0772000006'),
      charge(t, token, b.transaction_id, '0772000006'),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expectErrorEnvelope(
      results.find((r) => r.status === 409)!,
      409,
      'payment_pending',
    );
    const charged = await Promise.all([a, b].map((p) => t.dpoSandbox!.transaction(p.dpo_token)));
    expect(charged.filter((c) => c?.charge).length).toBe(1);
  });

  it('sends the prompt again (rate-limited) and to another number', async () => {
    const { token, started } = await start(t);
    expect((await charge(t, token, started.transaction_id, '0772000006')).status).toBe(200);
    expect((await charge(t, token, started.transaction_id, '0772000006')).status).toBe(200);
    expect((await t.dpoSandbox!.transaction(started.dpo_token))!.charge!.requests).toBe(2);
    // Another number, on the other network: the same payment, the new phone.
    expect((await charge(t, token, started.transaction_id, '0752000006', 'Mobile_Airtel_UG')).status).toBe(200);
    expect(await waiting(t, token)).toMatchObject({ phone: '256752000006', mno: 'Mobile_Airtel_UG' });
    // A fourth prompt inside a minute is refused before it reaches DPO.
    expectErrorEnvelope(await charge(t, token, started.transaction_id, '0772000006'), 429, 'rate_limited');
    expect((await t.dpoSandbox!.transaction(started.dpo_token))!.charge!.requests).toBe(3);
    expect(await history(t, token)).toHaveLength(1);
  });

  it('cancels a waiting payment: closed at DPO, never activated, and buying again is allowed', async () => {
    const { token, started, email, plan } = await start(t);
    expect(
      (
        await quiet.call(api.chargeMobile, {
          token,
          body: { transaction_id: started.transaction_id, phoneNumber: '0772000002', mno: 'MTNmobilemoney' },
        })
      ).status,
    ).toBe(200);
    const res = await cancel(t, token, started.transaction_id);
    expect(res.status, res.text).toBe(200);
    expect(VerifyPaymentResponse.parse(res.json)).toMatchObject({
      status: 'failed',
      cancelled: true,
      reference: started.reference,
      resultExplanation: CANCELLED_EXPLANATION,
    });
    expect((await t.dpoSandbox!.transaction(started.dpo_token))!.state).toBe('cancelled');
    // Cancelling twice answers the same; the reconciler leaves it alone.
    expect(VerifyPaymentResponse.parse((await cancel(t, token, started.transaction_id)).json).cancelled).toBe(true);
    t.clock.advance(20 * 60_000);
    await reconcile(t.deps);
    expect((await row(t, started.transaction_id)).status).toBe('failed');
    expect(await waiting(t, token)).toBeNull();
    expect(await history(t, token)).toEqual([
      expect.objectContaining({ status: 'failed', reference: started.reference }),
    ]);
    const [user] = await t.deps.database.db.select().from(users).where(eq(users.email, email));
    expect(user!.subscriptionPlanId).toBeNull();
    expect((await initiate(t, token, plan.id)).status).toBe(201);
    // Another payment's id (the last digit changed, never to itself) is nobody's here.
    const lastDigit = started.transaction_id.slice(-1);
    const otherId = started.transaction_id.slice(0, -1) + (lastDigit === '0' ? '1' : '0');
    expectErrorEnvelope(await cancel(t, token, otherId), 404, 'not_found');
  });

  it('a prompt approved just before the cancel activates once; a paid push after a cancel goes to review', async () => {
    const { token, started, email } = await start(t);
    expect(
      (
        await quiet.call(api.chargeMobile, {
          token,
          body: { transaction_id: started.transaction_id, phoneNumber: '0772000005', mno: 'MTNmobilemoney' },
        })
      ).status,
    ).toBe(200);
    t.clock.advance(DELAY + 1); // paid at DPO, not yet known here
    expectErrorEnvelope(
      await quiet.call(api.cancel, { token, params: { transaction_id: started.transaction_id } }),
      409,
      'conflict',
      PAID_BEFORE_CANCEL,
    );
    expect((await row(t, started.transaction_id)).status).toBe('completed');
    const receipts = await t.deps.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'receipt')));
    expect(receipts).toHaveLength(1);
    expectErrorEnvelope(await cancel(t, token, started.transaction_id), 409, 'conflict');

    // Cancelled, then DPO says paid anyway: flagged for an admin, not activated and not lost.
    const second = await start(t);
    expect(
      (
        await quiet.call(api.chargeMobile, {
          token: second.token,
          body: { transaction_id: second.started.transaction_id, phoneNumber: '0772000002', mno: 'MTNmobilemoney' },
        })
      ).status,
    ).toBe(200);
    expect((await cancel(t, second.token, second.started.transaction_id)).status).toBe(200);
    await t.deps.database.db
      .update(dpoSandboxTransactions)
      .set({ state: 'paid', paidAmount: '25000' })
      .where(eq(dpoSandboxTransactions.transToken, second.started.dpo_token));
    const push = () =>
      t.request('POST', '/api/payments/dpo/notify', {
        headers: { 'content-type': 'application/xml' },
        rawBody: `<API3G><TransactionToken>${second.started.dpo_token}</TransactionToken></API3G>`,
      });
    expect((await push()).status).toBe(200);
    expect((await push()).status).toBe(200);
    expect(await row(t, second.started.transaction_id)).toMatchObject({
      status: 'review',
      resultExplanation: PAID_AFTER_CANCEL,
    });
    const [payer] = await t.deps.database.db.select().from(users).where(eq(users.email, second.email));
    expect(payer!.subscriptionPlanId).toBeNull();
  });

  it('the admin search finds a payment by its short reference', async () => {
    const { token, started } = await start(t);
    expect((await charge(t, token, started.transaction_id, '0772000006')).status).toBe(200);
    const adminToken = await loginAdmin(t);
    for (const search of [started.reference, started.reference.toLowerCase()]) {
      const res = await t.request('GET', `/api/admin/payments?search=${encodeURIComponent(search)}`, {
        token: adminToken,
      });
      const list = AdminPaymentList.parse(res.json);
      expect(list.payments.map((p) => p.reference)).toEqual([started.reference]);
      expect(list.payments[0]!.id).toBe(started.transaction_id);
    }
  });
});

function randomCode(): string {
  return Array.from({ length: 5 }, (_, i) => PAYMENT_REFERENCE_ALPHABET[(Date.now() + i * 7) % 32]).join('');
}
