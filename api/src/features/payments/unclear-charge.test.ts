import { ChargeMobileResponse, InitiatePaymentResponse, VerifyPaymentResponse, contracts } from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, expectErrorEnvelope, registerUser, testDatabases } from '../../../test/harness.ts';
import { mailOutbox, payments, users } from '../../db/schema.ts';
import { type DpoSandbox } from './dpo/sandbox.ts';
import { type Fault, type FaultProxy } from './dpo/testing.ts';
import { appBehindProxiedSandbox, insertPlan } from './proxied-sandbox.testing.ts';
import { PROMPT_NOT_SENT } from './payment-rules.ts';

/**
 * A lost answer to a money call (decisions 0086, 0087): the real adapter talks over loopback to a proxy in front of the
 * sandbox that forwards the request, then answers 502, drops the connection or stalls past DPO_TIMEOUT_MS.
 * The sandbox counts the charges it received; the payer is told what verifyToken says, never "failed, try again".
 */

const { payments: api } = contracts;
const DELAY = 3000;
const PRICE = 20_000;
const TIMEOUT_MS = 400;

describe.each(testDatabases)('a lost answer to a money call on %s', (kind) => {
  let t: TestApp;
  let sandbox: DpoSandbox;
  let proxy: FaultProxy;
  let close: () => Promise<void>;
  let phoneCounter = 0;

  beforeAll(async () => {
    const env = { DPO_TIMEOUT_MS: String(TIMEOUT_MS), SANDBOX_PAYMENT_DELAY_MS: String(DELAY) };
    ({ t, sandbox, proxy, close } = await appBehindProxiedSandbox(kind, env, { sandboxPushes: true }));
  });
  afterAll(() => close());

  /** A fresh payer on a fresh plan with a started payment; `ending` is the phone's last digit (the sandbox scenario). */
  async function started(ending: string) {
    const plan = await insertPlan(t, PRICE);
    const { token, body } = await registerUser(t);
    const res = await t.call(api.initiate, { token, body: { subscription_plan_id: plan.id } });
    expect(res.status, res.text).toBe(201);
    phoneCounter += 1;
    const phone = `07720${String(phoneCounter).padStart(4, '0')}${ending}`;
    return { token, email: body.email, plan, phone, payment: InitiatePaymentResponse.parse(res.json) };
  }

  const charge = (p: Awaited<ReturnType<typeof started>>) =>
    t.call(api.chargeMobile, {
      token: p.token,
      body: { transaction_id: p.payment.transaction_id, phoneNumber: p.phone, mno: 'MTNmobilemoney' },
    });
  const verify = async (p: Awaited<ReturnType<typeof started>>) => {
    const res = await t.call(api.verify, { token: p.token, params: { token: p.payment.dpo_token } });
    expect(res.status, res.text).toBe(200);
    return VerifyPaymentResponse.parse(res.json);
  };
  const chargesAtSandbox = async (p: Awaited<ReturnType<typeof started>>) =>
    (await sandbox.transaction(p.payment.dpo_token))?.charge?.requests ?? 0;
  const receipts = async (email: string) =>
    (
      await t.deps.database.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'receipt')))
    ).length;
  const subscribedTo = async (email: string) =>
    (await t.deps.database.db.select().from(users).where(eq(users.email, email)))[0]!.subscriptionPlanId;

  it.each<Fault>(['502', 'drop', 'stall'])(
    'after a %s on the charge: one prompt, "approve on your phone", then paid and activated once',
    async (fault) => {
      const p = await started('0');
      const before = proxy.forwarded('ChargeTokenMobile');
      proxy.failNext('ChargeTokenMobile', fault);
      const res = await charge(p);
      expect(res.status, res.text).toBe(200);
      const body = ChargeMobileResponse.parse(res.json);
      expect(body.status).toBe('pending');
      expect(body.instructions).toContain('Approve it with your PIN');
      expect(body.instructions).toContain('*165#');
      expect(proxy.forwarded('ChargeTokenMobile') - before).toBe(1);
      expect(await chargesAtSandbox(p)).toBe(1);

      expect((await verify(p)).status).toBe('pending');
      t.clock.advance(DELAY);
      expect((await verify(p)).status).toBe('completed');
      await sandbox.settle();
      expect(await chargesAtSandbox(p)).toBe(1);
      expect(await receipts(p.email)).toBe(1);
      expect(await subscribedTo(p.email)).toBe(p.plan.id);
    },
  );

  it('says completed when the payment landed while the answer was lost', async () => {
    const p = await started('0');
    proxy.failNext('ChargeTokenMobile', 'stall');
    const pending = charge(p);
    // The sandbox has taken the charge; the payer approves before our timeout gives up on the answer.
    await expect.poll(() => chargesAtSandbox(p), { timeout: 2000, interval: 10 }).toBe(1);
    t.clock.advance(DELAY);
    const res = await pending;
    expect(res.status, res.text).toBe(200);
    expect(ChargeMobileResponse.parse(res.json).status).toBe('completed');
    await sandbox.settle();
    expect((await verify(p)).status).toBe('completed');
    expect(await chargesAtSandbox(p)).toBe(1);
    expect(await receipts(p.email)).toBe(1);
    expect(await subscribedTo(p.email)).toBe(p.plan.id);
  });

  it('says failed (the payer may start again) when DPO declined the charge whose answer was lost', async () => {
    const p = await started('1');
    proxy.failNext('ChargeTokenMobile', 'stall');
    const pending = charge(p);
    await expect.poll(() => chargesAtSandbox(p), { timeout: 2000, interval: 10 }).toBe(1);
    t.clock.advance(DELAY);
    const res = await pending;
    expect(res.status, res.text).toBe(200);
    expect(ChargeMobileResponse.parse(res.json).status).toBe('failed');
    expect((await verify(p)).status).toBe('failed');
    expect(await chargesAtSandbox(p)).toBe(1);
    expect(await receipts(p.email)).toBe(0);
  });

  it('lets the payer charge again only when DPO says the prompt was never sent', async () => {
    const p = await started('0');
    proxy.failNext('ChargeTokenMobile', 'lost');
    expectErrorEnvelope(await charge(p), 503, 'unavailable', PROMPT_NOT_SENT);
    expect(await chargesAtSandbox(p)).toBe(0);
    const again = await charge(p);
    expect(again.status, again.text).toBe(200);
    expect(ChargeMobileResponse.parse(again.json).status).toBe('pending');
    expect(await chargesAtSandbox(p)).toBe(1);
    t.clock.advance(DELAY);
    expect((await verify(p)).status).toBe('completed');
    expect(await receipts(p.email)).toBe(1);
  });

  it('retries createToken after a 502 (no money moves; the lost token is never charged)', async () => {
    const before = proxy.forwarded('createToken');
    proxy.failNext('createToken', '502');
    const p = await started('0');
    expect(proxy.forwarded('createToken') - before).toBe(2);
    const [row] = await t.deps.database.db.select().from(payments).where(eq(payments.id, p.payment.transaction_id));
    expect(row).toMatchObject({ status: 'pending', dpoToken: p.payment.dpo_token });
    expect((await charge(p)).status).toBe(200);
    t.clock.advance(DELAY);
    expect((await verify(p)).status).toBe('completed');
  });

  it('still retries verifyToken after a 502', async () => {
    const p = await started('0');
    expect((await charge(p)).status).toBe(200);
    const before = proxy.forwarded('verifyToken');
    proxy.failNext('verifyToken', '502');
    expect((await verify(p)).status).toBe('pending');
    expect(proxy.forwarded('verifyToken') - before).toBe(2);
    expect(await chargesAtSandbox(p)).toBe(1);
  });
});
