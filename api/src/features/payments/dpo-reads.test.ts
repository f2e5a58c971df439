import { InitiatePaymentResponse, VerifyPaymentResponse, contracts } from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, registerUser, testDatabases } from '../../../test/harness.ts';
import { mailOutbox, payments } from '../../db/schema.ts';
import { dpoReads } from '../rate-limit/limits.ts';
import { type FaultProxy } from './dpo/testing.ts';
import { appBehindProxiedSandbox, insertPlan } from './proxied-sandbox.testing.ts';

/**
 * Reads of a payment that reach DPO (decision 0115): verify, the result pages and DPO's push. The real adapter talks
 * to the sandbox through a counting proxy, so every verifyToken that left the app is seen; the sandbox's own push is
 * off, so the only pushes are the test's.
 */

const { payments: api } = contracts;
const DELAY = 3000;
const PRICE = 20_000;
const WINDOW_MS = dpoReads.perPayment.windowSeconds * 1000;

describe.each(testDatabases)('reads that reach DPO on %s', (kind) => {
  let t: TestApp;
  let proxy: FaultProxy;
  let close: () => Promise<void>;
  let phoneCounter = 0;

  beforeAll(async () => {
    const env = { SANDBOX_PAYMENT_DELAY_MS: String(DELAY) };
    ({ t, proxy, close } = await appBehindProxiedSandbox(kind, env, { sandboxPushes: false }));
  });
  afterAll(() => close());

  /** A payer with a charged payment; `ending` is the phone's last digit (0: paid after DELAY, 2: never answered). */
  async function charged(ending: string) {
    const plan = await insertPlan(t, PRICE);
    const { token, body } = await registerUser(t);
    const payment = InitiatePaymentResponse.parse(
      (await t.call(api.initiate, { token, body: { subscription_plan_id: plan.id } })).json,
    );
    phoneCounter += 1;
    const phoneNumber = `07730${String(phoneCounter).padStart(4, '0')}${ending}`;
    const res = await t.call(api.chargeMobile, {
      token,
      body: { transaction_id: payment.transaction_id, phoneNumber, mno: 'MTNmobilemoney' },
    });
    expect(res.status, res.text).toBe(200);
    return { token, email: body.email, payment };
  }

  type Charged = Awaited<ReturnType<typeof charged>>;
  /** Half verify by DPO token, half the result page by transaction id: the same payment either way. */
  const read = (p: Charged, i: number) =>
    i % 2 === 0
      ? t.call(api.verify, { token: p.token, params: { token: p.payment.dpo_token } })
      : t.call(api.transaction, { token: p.token, params: { transaction_id: p.payment.transaction_id } });
  const readAll = async (p: Charged, n: number) => {
    const responses = await Promise.all(Array.from({ length: n }, (_, i) => read(p, i)));
    for (const res of responses) expect(res.status, res.text).toBe(200);
    return responses.map((res) => VerifyPaymentResponse.parse(res.json).status);
  };
  const verifies = () => proxy.forwarded('verifyToken');
  const push = (dpoToken: string) =>
    t.request('POST', '/api/payments/dpo/notify', {
      headers: { 'content-type': 'application/xml' },
      rawBody: `<API3G><TransactionToken>${dpoToken}</TransactionToken></API3G>`,
    });

  it('50 parallel reads of one payment make one DPO call and all answer its state; paid, then none', async () => {
    const p = await charged('0');
    let before = verifies();
    expect(new Set(await readAll(p, 50))).toEqual(new Set(['pending']));
    expect(verifies() - before).toBeGreaterThanOrEqual(1);
    expect(verifies() - before).toBeLessThanOrEqual(2);

    t.clock.advance(DELAY);
    before = verifies();
    expect(new Set(await readAll(p, 50))).toEqual(new Set(['completed']));
    expect(verifies() - before).toBeLessThanOrEqual(2);
    const receipts = await t.deps.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, p.email), eq(mailOutbox.kind, 'receipt')));
    expect(receipts).toHaveLength(1);

    // Settled: the stored state is the answer, DPO is not asked again.
    t.clock.advance(WINDOW_MS);
    before = verifies();
    expect(new Set(await readAll(p, 50))).toEqual(new Set(['completed']));
    expect(verifies() - before).toBe(0);
  });

  it('asks DPO about one account at most 120 times an hour, answering the stored state past that', async () => {
    const p = await charged('2');
    const other = await charged('2');
    const before = verifies();
    for (let i = 0; i < dpoReads.perAccount.max + 10; i++) {
      expect(await readAll(p, 1)).toEqual(['pending']);
      t.clock.advance(WINDOW_MS);
    }
    expect(verifies() - before).toBe(dpoReads.perAccount.max);
    // Another payer is not held back by that.
    const otherBefore = verifies();
    expect(await readAll(other, 1)).toEqual(['pending']);
    expect(verifies() - otherBefore).toBe(1);
  });

  it("50 parallel pushes make one DPO call; a push for a settled payment makes none; a push in the window brings the reconciler's look forward", async () => {
    const p = await charged('0');
    t.clock.advance(DELAY);
    let before = verifies();
    const pushes = await Promise.all(Array.from({ length: 50 }, () => push(p.payment.dpo_token)));
    for (const res of pushes) expect([res.status, res.text]).toEqual([200, 'OK']);
    expect(verifies() - before).toBeLessThanOrEqual(2);
    const [row] = await t.deps.database.db.select().from(payments).where(eq(payments.id, p.payment.transaction_id));
    expect(row!.status).toBe('completed');
    before = verifies();
    expect((await push(p.payment.dpo_token)).status).toBe(200);
    expect(verifies() - before).toBe(0);

    const waiting = await charged('2');
    expect(await readAll(waiting, 1)).toEqual(['pending']);
    before = verifies();
    expect((await push(waiting.payment.dpo_token)).status).toBe(200);
    expect(verifies() - before).toBe(0);
    const [pending] = await t.deps.database.db
      .select()
      .from(payments)
      .where(eq(payments.id, waiting.payment.transaction_id));
    expect(pending!.nextCheckAt.getTime()).toBeLessThanOrEqual(t.clock.now().getTime() + WINDOW_MS);
  });
});
