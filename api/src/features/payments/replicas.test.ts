import { ChargeMobileResponse, InitiatePaymentResponse, VerifyPaymentResponse, contracts } from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  TestClock,
  createTestApp,
  freshDatabase,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import type { Database } from '../../db/client.ts';
import { mailOutbox, payments, smsOutbox, subscriptionPlans, users } from '../../db/schema.ts';
import { createDpoGateway } from './dpo/adapter.ts';
import { createDpoSandbox } from './dpo/sandbox.ts';
import { listen, MovableClock } from '../../lib/loopback.testing.ts';
import { FIRST_CHECK_MS } from './payment-rules.ts';
import { reconcile } from './reconciler.ts';
import { stockPlan } from '../../../test/library.ts';

/**
 * Two replicas in sandbox mode on one database, each with its own simulator mounted (decision 0088): they must answer
 * as one gateway, as DPO does — a token created and charged through one is verified, paid and settled through the other.
 */

const { payments: api } = contracts;
const DELAY = 3000;
const PRICE = 18_000;

describe.each(testDatabases)('two replicas in sandbox mode on %s', (kind) => {
  let database: Database;
  let a: TestApp;
  let b: TestApp;
  const clock = new TestClock();
  let phoneCounter = 0;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    const env = { SANDBOX_PAYMENT_DELAY_MS: String(DELAY) };
    a = await createTestApp(kind, { database, clock, env, keepDatabaseOpen: true, dpo: {} });
    b = await createTestApp(kind, { database, clock, env, keepDatabaseOpen: true, dpo: {} });
  });
  afterAll(async () => {
    await a.dpoSandbox!.settle();
    await b.dpoSandbox!.settle();
    await a.close();
    await b.close();
    await database.close();
  });

  /** Started and charged through A. */
  async function chargedOnA() {
    const [plan] = await database.db
      .insert(subscriptionPlans)
      .values({
        planName: `Plan ${Math.random().toString(36).slice(2, 7)}`,
        priceUgx: PRICE,
        globalExpiryAt: new Date(clock.now().getTime() + 30 * 86_400_000),
      })
      .returning();
    await stockPlan(database.db, plan!.id);
    const { token, body } = await registerUser(a);
    const started = await a.call(api.initiate, { token, body: { subscription_plan_id: plan!.id } });
    expect(started.status, started.text).toBe(201);
    const payment = InitiatePaymentResponse.parse(started.json);
    phoneCounter += 1;
    const charged = await a.call(api.chargeMobile, {
      token,
      body: {
        transaction_id: payment.transaction_id,
        phoneNumber: `07720${String(phoneCounter).padStart(4, '0')}5`,
        mno: 'MTNmobilemoney',
      },
    });
    expect(charged.status, charged.text).toBe(200);
    expect(ChargeMobileResponse.parse(charged.json).status).toBe('pending');
    return { token, email: body.email, plan: plan!, payment };
  }

  const verifyOn = async (app: TestApp, token: string, dpoToken: string) => {
    const res = await app.call(api.verify, { token, params: { token: dpoToken } });
    expect(res.status, res.text).toBe(200);
    return VerifyPaymentResponse.parse(res.json);
  };
  const receipts = async (email: string) =>
    (
      await database.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'receipt')))
    ).length;
  /** The SMS receipt to the payer's registered phone goes with the mail, in the same transaction. */
  const smsReceipts = async (email: string) => {
    const [user] = await database.db.select().from(users).where(eq(users.email, email));
    return (
      await database.db
        .select()
        .from(smsOutbox)
        .where(and(eq(smsOutbox.toPhone, user!.phone!), eq(smsOutbox.purpose, 'payment_receipt')))
    ).length;
  };

  it('verifies through B a payment created and charged through A: pending, then paid, activated once', async () => {
    const p = await chargedOnA();
    // B's options and verify reach B's own simulator, which knows A's token.
    const options = await b.call(api.paymentOptions, { token: p.token, params: { token: p.payment.dpo_token } });
    expect(options.status, options.text).toBe(200);
    expect(options.json.mobileoption).toHaveLength(2);
    expect((await verifyOn(b, p.token, p.payment.dpo_token)).status).toBe('pending');
    clock.advance(DELAY);
    const [first, second] = await Promise.all([
      verifyOn(b, p.token, p.payment.dpo_token),
      verifyOn(a, p.token, p.payment.dpo_token),
    ]);
    expect([first.status, second.status]).toEqual(['completed', 'completed']);
    await a.dpoSandbox!.settle();
    await b.dpoSandbox!.settle();
    expect(await receipts(p.email)).toBe(1);
    expect(await smsReceipts(p.email)).toBe(1);
    const [user] = await database.db.select().from(users).where(eq(users.email, p.email));
    expect(user!.subscriptionPlanId).toBe(p.plan.id);
  });

  it("settles through B's reconciler a payment charged on A that nobody polls", async () => {
    const p = await chargedOnA();
    clock.advance(FIRST_CHECK_MS);
    const report = await reconcile(b.deps);
    expect(report.settled).toBeGreaterThanOrEqual(1);
    const [row] = await database.db.select().from(payments).where(eq(payments.id, p.payment.transaction_id));
    expect(row!.status).toBe('completed');
    await a.dpoSandbox!.settle();
    await b.dpoSandbox!.settle();
    expect(await receipts(p.email)).toBe(1);
    expect(await smsReceipts(p.email)).toBe(1);
  });
});

describe.each(testDatabases)('the sandbox shared by replicas on %s', (kind) => {
  it('pushes a payment once, from whichever replica records it first', async () => {
    const database = await freshDatabase(kind);
    await database.prepare(async () => undefined);
    const clock = new MovableClock();
    const pushes: string[] = [];
    const replicas = [0, 1].map(() =>
      createDpoSandbox({
        clock,
        database,
        paymentDelayMs: DELAY,
        settleIntervalMs: 0,
        notify: async (token) => {
          pushes.push(token);
        },
      }),
    );
    const servers = await Promise.all(
      replicas.map((sandbox) => {
        const app = new Hono();
        app.route('/API/v6', sandbox.app);
        return listen(app);
      }),
    );
    try {
      const [one, two] = servers.map((server, i) =>
        createDpoGateway({
          apiUrl: `${server.url}/API/v6/`,
          companyToken: replicas[i]!.companyToken,
          serviceType: 3854,
          ptlMinutes: 30,
          timeoutMs: 2000,
          retries: 0,
          clock,
        }),
      );
      const created = await one!.createToken({
        companyRef: 'replica-ref',
        amount: PRICE,
        currency: 'UGX',
        description: 'Plan',
        serviceDate: clock.now(),
      });
      expect(
        (
          await two!.chargeTokenMobile({
            transToken: created.transToken,
            phoneNumber: '256772000000',
            mno: 'MTNmobilemoney',
            country: 'uganda',
          })
        ).code,
      ).toBe('130');
      expect((await one!.verifyToken(created.transToken)).code).toBe('900');
      clock.advance(DELAY);
      await Promise.all([
        ...replicas.map((sandbox) => sandbox.settle()),
        one!.verifyToken(created.transToken),
        two!.verifyToken(created.transToken),
      ]);
      await Promise.all(replicas.map((sandbox) => sandbox.settle()));
      expect(pushes).toEqual([created.transToken]);
      expect((await two!.verifyToken(created.transToken)).code).toBe('000');
    } finally {
      replicas.forEach((sandbox) => sandbox.close());
      await Promise.all(servers.map((server) => server.close()));
      await database.close();
    }
  });
});
