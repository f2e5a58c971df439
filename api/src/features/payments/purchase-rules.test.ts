import { contracts, formatDate, STAFF_NEED_NO_PLAN, VerifyPaymentResponse } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  createAgentAs,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { payments, subscriptionPlans, users } from '../../db/schema.ts';
import { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { handleError } from '../../http/errors.ts';
import { createAuthorize } from '../auth/authorize.ts';
import { activateSubscription } from '../plans/subscription.ts';
import { paymentRoutes } from './routes.ts';
import { stockPlan } from '../../../test/library.ts';

const { payments: api } = contracts;
const DAY = 86_400_000;

describe.each(testDatabases)('who may pay for what on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { dpo: {} });
  });
  afterAll(async () => {
    await t.dpoSandbox?.settle();
    await t.close();
  });

  async function plan(name: string, days: number) {
    const [row] = await t.deps.database.db
      .insert(subscriptionPlans)
      .values({
        planName: `${name} ${Math.random().toString(36).slice(2, 7)}`,
        priceUgx: 25_000,
        globalExpiryAt: new Date(t.clock.now().getTime() + days * DAY),
      })
      .returning();
    await stockPlan(t.deps.database.db, row!.id);
    return row!;
  }

  const initiate = (token: string, planId: string) =>
    t.call(api.initiate, { token, body: { subscription_plan_id: planId, currency: 'UGX' } });

  /** A registered user holding `held` now, as a payment or an admin would leave them. */
  async function subscriber(held: Awaited<ReturnType<typeof plan>>) {
    const registered = await registerUser(t);
    await activateSubscription(t.deps.database.db, registered.user.id, held, t.clock.now());
    return registered;
  }

  it('refuses an admin a purchase with 403 and says why', async () => {
    const token = await loginAdmin(t);
    const res = await initiate(token, (await plan('Basic', 30)).id);
    expectErrorEnvelope(res, 403, 'forbidden', STAFF_NEED_NO_PLAN.admin);
    const history = await t.call(api.history, { token });
    expect(history.status, history.text).toBe(200);
  });

  it('sells a plan that ends later than the current one, replacing it', async () => {
    const basic = await plan('Basic', 30);
    const premium = await plan('Premium', 90);
    const { token } = await subscriber(basic);
    expect((await initiate(token, premium.id)).status).toBe(201);
  });

  it('refuses with 409 the plan held now, and one ending on or before it', async () => {
    const basic = await plan('Basic', 30);
    const weekly = await plan('Weekly', 7);
    const { token, user } = await subscriber(basic);
    const end = formatDate(basic.globalExpiryAt);
    expectErrorEnvelope(
      await initiate(token, basic.id),
      409,
      'conflict',
      `You already have the ${basic.planName} plan until ${end}.`,
    );
    const earlier = await initiate(token, weekly.id);
    expectErrorEnvelope(
      earlier,
      409,
      'conflict',
      new RegExp(`on or before your ${basic.planName} plan \\(until ${end}\\)`),
    );
    const started = await t.deps.database.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(started).toHaveLength(0);
  });

  it('sells any plan again once the subscription has lapsed', async () => {
    const basic = await plan('Basic', 30);
    const { token, user } = await subscriber(basic);
    await t.deps.database.db
      .update(users)
      .set({ subscriptionEndDate: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(users.id, user.id));
    expect((await initiate(token, basic.id)).status).toBe(201);
  });

  it("looks up one of the user's payments by transaction id, and no one else's", async () => {
    const basic = await plan('Basic', 30);
    const { token } = await registerUser(t);
    const started = await initiate(token, basic.id);
    const transactionId = started.json.transaction_id as string;
    const res = await t.call(api.transaction, { token, params: { transaction_id: transactionId } });
    expect(res.status, res.text).toBe(200);
    expect(VerifyPaymentResponse.parse(res.json)).toMatchObject({
      status: 'pending',
      transaction_id: transactionId,
      plan_name: basic.planName,
      amount: 25_000,
      subscription_end_date: null,
    });
    const stranger = await registerUser(t);
    const other = await t.call(api.transaction, { token: stranger.token, params: { transaction_id: transactionId } });
    expectErrorEnvelope(other, 404, 'not_found', 'Payment not found.');
  });

  /**
   * The route contracts say `user`; whether the gate answers a signed-in agent 401 or 403 is the authorize
   * middleware's business. Behind a gate that lets any account through, every payments route still refuses
   * an agent — with 403 and the reason, never a 401 that would sign them out.
   */
  it('answers an agent 403 with the reason on every payments route', async () => {
    const lenient = new Hono<AppEnv>();
    lenient.onError(handleError);
    lenient.use(requestId({ headerName: 'X-Request-Id' }));
    const authorize = createAuthorize(t.deps);
    paymentRoutes(new ContractRouter(lenient, (access) => authorize(access === 'user' ? 'account' : access)), t.deps);

    const { agent, password } = await createAgentAs(t, await loginAdmin(t));
    const login = await t.request('POST', '/api/auth/agent/login', {
      body: { email: agent.email, password },
      ip: freshIp(),
    });
    const token = login.json.token as string;
    const someId = '00000000-0000-4000-8000-000000000000';
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/payments/initiate', { subscription_plan_id: (await plan('Basic', 30)).id }],
      ['GET', '/payments/payment-options/some-token'],
      ['POST', '/payments/charge-mobile', { transaction_id: someId, phoneNumber: '0772000005', mno: 'MTNmobilemoney' }],
      ['GET', '/payments/verify/some-token'],
      ['GET', `/payments/transactions/${someId}`],
      ['GET', '/payments/history'],
    ];
    for (const [method, path, body] of calls) {
      const response = await lenient.request(path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await response.json()) as { error: { code: string; message: string } };
      expect([path, response.status, json.error]).toEqual([
        path,
        403,
        expect.objectContaining({ code: 'forbidden', message: STAFF_NEED_NO_PLAN.agent }),
      ]);
    }
  });
});
