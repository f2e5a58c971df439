import { ChargeMobileResponse, InitiatePaymentResponse, VerifyPaymentResponse, contracts } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { stockPlan } from '../../../test/library.ts';
import { payments, subscriptionPlans } from '../../db/schema.ts';

/** The number decides the network (issue 20 §7): a number the chosen network cannot prompt never reaches DPO. */

const { payments: api } = contracts;
const DELAY = 3000;

describe.each(testDatabases)('the payer’s number and the chosen network on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { dpo: {} });
  });
  afterAll(async () => {
    await t.dpoSandbox?.settle();
    await t.close();
  });

  async function started() {
    const [plan] = await t.deps.database.db
      .insert(subscriptionPlans)
      .values({
        planName: `Networks ${Math.random().toString(36).slice(2, 7)}`,
        priceUgx: 15_000,
        globalExpiryAt: new Date(t.clock.now().getTime() + 30 * 86_400_000),
      })
      .returning();
    await stockPlan(t.deps.database.db, plan!.id);
    const { token } = await registerUser(t);
    const res = await t.call(api.initiate, { token, body: { subscription_plan_id: plan!.id } });
    expect(res.status, res.text).toBe(201);
    return { token, payment: InitiatePaymentResponse.parse(res.json) };
  }
  const charge = (token: string, transactionId: string, phoneNumber: string, mno: string) =>
    t.call(api.chargeMobile, { token, body: { transaction_id: transactionId, phoneNumber, mno } });

  /** What DPO (the sandbox) has received for the payment, and what our row says was charged. */
  async function charged(payment: { transaction_id: string; dpo_token: string }) {
    const [row] = await t.deps.database.db.select().from(payments).where(eq(payments.id, payment.transaction_id));
    const atDpo = (await t.dpoSandbox!.transaction(payment.dpo_token))?.charge;
    return { atDpo, phone: row!.phone, mno: row!.mno, status: row!.status };
  }

  it('refuses an Airtel number under MTN with wrong_network before DPO, then pays once Airtel Money is chosen', async () => {
    const { token, payment } = await started();
    const refused = await charge(token, payment.transaction_id, '0752 123 455', 'MTNmobilemoney');
    expectErrorEnvelope(
      refused,
      400,
      'wrong_network',
      '0752 123 455 is an Airtel number. Pay with Airtel Money, or use an MTN number like 0772 123 456.',
    );
    expect(refused.json.error.issues).toEqual([{ path: 'phoneNumber', message: refused.json.error.message }]);
    // The other way round too.
    expectErrorEnvelope(
      await charge(token, payment.transaction_id, '256772123455', 'Mobile_Airtel_UG'),
      400,
      'wrong_network',
    );
    expect(await charged(payment)).toEqual({ atDpo: undefined, phone: null, mno: null, status: 'pending' });

    const ok = await charge(token, payment.transaction_id, '0752 123 455', 'Mobile_Airtel_UG');
    expect(ok.status, ok.text).toBe(200);
    expect(ChargeMobileResponse.parse(ok.json).status).toBe('pending');
    expect(await charged(payment)).toMatchObject({
      atDpo: { phoneNumber: '256752123455', mno: 'Mobile_Airtel_UG', requests: 1 },
      phone: '256752123455',
      mno: 'Mobile_Airtel_UG',
    });
    t.clock.advance(DELAY);
    const verified = await t.call(api.verify, { token, params: { token: payment.dpo_token } });
    expect(VerifyPaymentResponse.parse(verified.json).status).toBe('completed');
  });

  it.each([
    ['0712 345 678', '0712 345 678 is not an MTN or Airtel number.'],
    ['0726 123 456', '0726 123 456 is not an MTN or Airtel number.'],
    ['0312 123 456', '0312 123 456 is not an MTN or Airtel number.'],
    ['12345', 'Enter a Uganda phone number'],
  ])('refuses %s, which neither network serves, and charges nothing', async (phone, words) => {
    const { token, payment } = await started();
    for (const mno of ['MTNmobilemoney', 'Mobile_Airtel_UG']) {
      const res = await charge(token, payment.transaction_id, phone, mno);
      expectErrorEnvelope(res, 400, 'validation_error');
      expect(res.json.error.issues).toEqual([{ path: 'phoneNumber', message: expect.stringContaining(words) }]);
      expect(res.json.error.message).toContain('0772 123 456');
      expect(res.json.error.message).toContain('0752 123 456');
    }
    expect(await charged(payment)).toEqual({ atDpo: undefined, phone: null, mno: null, status: 'pending' });
  });

  it('refuses the other network without spending the payment’s charge allowance', async () => {
    const { token, payment } = await started();
    // More refusals than any charge limit allows (charge-limits.ts): none of them counts.
    for (let i = 0; i < 12; i++) {
      expectErrorEnvelope(
        await charge(token, payment.transaction_id, '0701000005', 'MTNmobilemoney'),
        400,
        'wrong_network',
      );
    }
    const ok = await charge(token, payment.transaction_id, '0701000005', 'Mobile_Airtel_UG');
    expect(ok.status, ok.text).toBe(200);
  });
});
