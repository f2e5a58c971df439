import { CustomerPlanList, PLAN_SALE_CLOSED, PlanSaleSetting, contracts } from '@filamu/shared';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { moviePlans, movies, subscriptionPlans, users } from '../../db/schema.ts';
import { stockPlan, subscribe } from '../../../test/library.ts';

const HOUR = 3_600_000;

/** Decision 0176: a plan tells its exact end, warns in its last hours, and is not sold in the last few. */
describe.each(testDatabases)('selling a plan near its end on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { dpo: {} });
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const putSetting = (token: string | undefined, body: unknown) =>
    t.request('PUT', '/api/admin/settings/plan-sale', { token, body });

  async function planEndingIn(hours: number) {
    const [plan] = await t.deps.database.db
      .insert(subscriptionPlans)
      .values({
        planName: `Ends in ${hours}h ${Math.random().toString(36).slice(2, 6)}`,
        priceUgx: 5_000,
        globalExpiryAt: new Date(t.clock.now().getTime() + hours * HOUR),
      })
      .returning();
    await stockPlan(t.deps.database.db, plan!.id);
    return plan!;
  }

  const buy = (token: string, planId: string) =>
    t.call(contracts.payments.initiate, {
      token,
      body: { subscription_plan_id: planId, amount: 5_000, currency: 'UGX', description: 'Plan' },
    });

  it('starts at a 72-hour warning and a 6-hour cut-off, which only an admin reads or changes', async () => {
    const read = await t.request('GET', '/api/admin/settings/plan-sale', { token: adminToken });
    expect(read.status, read.text).toBe(200);
    expect(PlanSaleSetting.parse(read.json)).toEqual({ planWarningHours: 72, planSaleCutoffHours: 6 });
    const { token } = await registerUser(t);
    expectErrorEnvelope(await putSetting(token, { planWarningHours: 1, planSaleCutoffHours: 0 }), 403, 'forbidden');
    expectErrorEnvelope(
      await putSetting(undefined, { planWarningHours: 1, planSaleCutoffHours: 0 }),
      401,
      'unauthenticated',
    );
  });

  it('keeps the hours whole and in range, and the warning no later than the cut-off', async () => {
    for (const [body, message] of [
      [{ planWarningHours: -1, planSaleCutoffHours: 0 }, /negative/],
      [{ planWarningHours: 721, planSaleCutoffHours: 0 }, /at most 720/],
      [{ planWarningHours: 24, planSaleCutoffHours: 169 }, /at most 168/],
      [{ planWarningHours: 2.5, planSaleCutoffHours: 0 }, /whole number/],
      [{ planWarningHours: 6, planSaleCutoffHours: 12 }, /at least as many hours/],
      [{ planWarningHours: '24', planSaleCutoffHours: 6 }, /hours before a plan ends/],
    ] as const) {
      expectErrorEnvelope(await putSetting(adminToken, body), 400, 'validation_error', message);
    }
    const read = await t.request('GET', '/api/admin/settings/plan-sale', { token: adminToken });
    expect(read.json).toEqual({ planWarningHours: 72, planSaleCutoffHours: 6 });
  });

  it('gives each plan on sale its end, the moment its sale stops and the moment to warn from', async () => {
    const plan = await planEndingIn(12);
    const { token } = await registerUser(t);
    const list = CustomerPlanList.parse((await t.request('GET', '/api/users/subscription-plans', { token })).json);
    const offered = list.plans.find((p) => p.id === plan.id)!;
    expect(offered).toMatchObject({
      expires_at: plan.globalExpiryAt.toISOString(),
      sale_ends_at: new Date(plan.globalExpiryAt.getTime() - 6 * HOUR).toISOString(),
      warn_from: new Date(plan.globalExpiryAt.getTime() - 72 * HOUR).toISOString(),
    });
  });

  it('says which plans have an English movie, so only their cards tell the Kinayuganda-first rule', async () => {
    const kinayugandaOnly = await planEndingIn(100);
    const withEnglish = await planEndingIn(100);
    const [english] = await t.deps.database.db
      .insert(movies)
      .values({
        title: 'River',
        category: 'English',
        s3Key: 'movies/river.mp4',
        sizeBytes: 4096,
        contentType: 'video/mp4',
      })
      .returning({ id: movies.id });
    await t.deps.database.db.insert(moviePlans).values({ movieId: english!.id, planId: withEnglish.id });
    const { token } = await registerUser(t);
    const list = CustomerPlanList.parse((await t.request('GET', '/api/users/subscription-plans', { token })).json);
    expect(list.plans.find((p) => p.id === kinayugandaOnly.id)?.includes_english).toBe(false);
    expect(list.plans.find((p) => p.id === withEnglish.id)?.includes_english).toBe(true);
  });

  it('refuses to sell a plan in its last hours with plan_sale_closed, and leaves it off the list', async () => {
    const closing = await planEndingIn(5);
    const { token } = await registerUser(t);
    expectErrorEnvelope(await buy(token, closing.id), 409, 'plan_sale_closed', PLAN_SALE_CLOSED(6));
    const list = CustomerPlanList.parse((await t.request('GET', '/api/users/subscription-plans', { token })).json);
    expect(list.plans.map((p) => p.id)).not.toContain(closing.id);
    // The admin's list says when its sale stopped, so the console can say why no customer sees it.
    const admin = (await t.request('GET', '/api/admin/subscription-plans', { token: adminToken })).json as {
      plans: Array<{ id: string; sale_ends_at: string }>;
    };
    expect(admin.plans.find((p) => p.id === closing.id)?.sale_ends_at).toBe(
      new Date(closing.globalExpiryAt.getTime() - 6 * HOUR).toISOString(),
    );
    // Still six hours and one minute out: sold, at the price the card showed with its warning.
    const open = await planEndingIn(6 + 1 / 60);
    const bought = await buy(token, open.id);
    expect(bought.status, bought.text).toBe(201);
  });

  it("follows the operator's choice: a cut-off of 0 sells to the end, a longer one stops sale sooner", async () => {
    const set = await putSetting(adminToken, { planWarningHours: 48, planSaleCutoffHours: 0 });
    expect(set.json).toEqual({ planWarningHours: 48, planSaleCutoffHours: 0 });
    const lastHour = await planEndingIn(0.5);
    const { token } = await registerUser(t);
    expect((await buy(token, lastHour.id)).status).toBe(201);

    await putSetting(adminToken, { planWarningHours: 48, planSaleCutoffHours: 24 });
    const tomorrow = await planEndingIn(20);
    const other = await registerUser(t);
    expectErrorEnvelope(await buy(other.token, tomorrow.id), 409, 'plan_sale_closed', /less than 24 hours/);
  });

  it('ends everyone on a plan at its one moment, whenever they paid, as the terms and refund pages say', async () => {
    await putSetting(adminToken, { planWarningHours: 72, planSaleCutoffHours: 6 });
    const plan = await planEndingIn(10 * 24);
    const early = await registerUser(t);
    await subscribe(t, adminToken, early.user.id, plan.id);
    t.clock.advance(2 * 24 * HOUR);
    adminToken = await loginAdmin(t);
    const late = await registerUser(t);
    await subscribe(t, adminToken, late.user.id, plan.id);
    const rows = await t.deps.database.db
      .select({ id: users.id, start: users.subscriptionStartDate, end: users.subscriptionEndDate })
      .from(users)
      .where(inArray(users.id, [early.user.id, late.user.id]));
    expect(rows.map((r) => r.end)).toEqual([plan.globalExpiryAt, plan.globalExpiryAt]);
    expect(new Set(rows.map((r) => r.start?.getTime())).size).toBe(2);
  });
});
