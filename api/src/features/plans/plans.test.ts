import {
  AdminPlanList,
  AdminPlanResponse,
  ApiErrorBody,
  CustomerPlanList,
  Message,
  UserProfile,
  kampalaLocalToDate,
} from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionPlans, users } from '../../db/schema.ts';
import {
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { stockPlan } from '../../../test/library.ts';
import { PLAN_IN_USE } from './plans.ts';

const UNKNOWN_ID = '7f1c9a52-3b1e-4c6d-9a8b-2e5f4d3c2b1a';
const DAY_MS = 86_400_000;

let planCounter = 0;
function newPlan(overrides: Record<string, unknown> = {}) {
  planCounter += 1;
  return {
    plan_name: `Plan ${planCounter}`,
    price_ugx: 25_000,
    description: 'Thirty days of films',
    features: ['Unlimited downloads', 'HD quality'],
    display_order: 0,
    global_expiry_date: '2026-12-31T23:59',
    ...overrides,
  };
}

describe.each(testDatabases)('subscription plans on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let userToken: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    userToken = (await registerUser(t)).token;
  });
  afterAll(() => t.close());

  const db = () => t.deps.database.db;
  const create = (body: Record<string, unknown>) =>
    t.request('POST', '/api/admin/subscription-plans', { body, token: adminToken });
  const createOk = async (overrides: Record<string, unknown> = {}) => {
    const res = await create(newPlan(overrides));
    if (res.status !== 201) throw new Error(`create plan failed: ${res.status} ${res.text}`);
    return AdminPlanResponse.parse(res.json).plan;
  };
  const update = (id: string, body: Record<string, unknown>) =>
    t.request('PUT', `/api/admin/subscription-plans/${id}`, { body, token: adminToken });
  const remove = (id: string) => t.request('DELETE', `/api/admin/subscription-plans/${id}`, { token: adminToken });
  const adminList = async () => {
    const res = await t.request('GET', '/api/admin/subscription-plans', { token: adminToken });
    expect(res.status).toBe(200);
    return AdminPlanList.parse(res.json).plans;
  };
  const customerList = async () => {
    const res = await t.request('GET', '/api/users/subscription-plans', { token: userToken });
    expect(res.status).toBe(200);
    return CustomerPlanList.parse(res.json).plans;
  };
  const subscribe = (userId: string, planId: string) =>
    t.request('PUT', `/api/admin/subscribers/${userId}/manage-subscription`, {
      body: { action: 'activate_extend', subscription_plan_id: planId },
      token: adminToken,
    });

  describe('admin CRUD', () => {
    it('creates a plan with defaults and the Kampala expiry', async () => {
      const body = newPlan({ plan_name: '  Basic  ', description: undefined });
      delete (body as Record<string, unknown>).description;
      delete (body as Record<string, unknown>).display_order;
      const res = await create(body);
      expect(res.status).toBe(201);
      const { plan } = AdminPlanResponse.parse(res.json);
      expect(plan).toMatchObject({
        plan_name: 'Basic',
        price_ugx: 25_000,
        description: '',
        features: ['Unlimited downloads', 'HD quality'],
        is_active: true,
        is_visible: true,
        display_order: 0,
        global_expiry_date: '2026-12-31T23:59',
        expires_at: '2026-12-31T20:59:00.000Z',
        subscriber_count: 0,
        movie_count: 0,
        active_movie_count: 0,
        created_at: t.clock.now().toISOString(),
      });
      const [row] = await db().select().from(subscriptionPlans).where(eq(subscriptionPlans.id, plan.id));
      expect(row!.globalExpiryAt.toISOString()).toBe('2026-12-31T20:59:00.000Z');
      expect((await adminList()).map((p) => p.id)).toContain(plan.id);
    });

    it('updates only the fields sent', async () => {
      const plan = await createOk({ description: 'keep me', is_visible: false });
      t.clock.advance(60_000);
      const res = await update(plan.id, { price_ugx: 30_000, plan_name: 'Premium' });
      expect(res.status).toBe(200);
      const updated = AdminPlanResponse.parse(res.json).plan;
      expect(updated).toMatchObject({
        id: plan.id,
        plan_name: 'Premium',
        price_ugx: 30_000,
        description: 'keep me',
        is_visible: false,
        global_expiry_date: plan.global_expiry_date,
        created_at: plan.created_at,
        updated_at: t.clock.now().toISOString(),
      });
    });

    it('deletes an unused plan', async () => {
      const plan = await createOk();
      const res = await remove(plan.id);
      expect(res.status).toBe(200);
      expect(Message.parse(res.json).message).toMatch(/deleted/);
      expect(await db().select().from(subscriptionPlans).where(eq(subscriptionPlans.id, plan.id))).toEqual([]);
      expect((await adminList()).map((p) => p.id)).not.toContain(plan.id);
    });

    it('refuses to delete a plan a user holds, even after the subscription ended', async () => {
      const plan = await createOk();
      const { user } = await registerUser(t);
      expect((await subscribe(user.id, plan.id)).status).toBe(200);
      expectErrorEnvelope(await remove(plan.id), 409, 'conflict', PLAN_IN_USE);

      await t.request('PUT', `/api/admin/subscribers/${user.id}/manage-subscription`, {
        body: { action: 'deactivate' },
        token: adminToken,
      });
      expectErrorEnvelope(await remove(plan.id), 409, 'conflict', PLAN_IN_USE);
      expect(await db().select().from(subscriptionPlans).where(eq(subscriptionPlans.id, plan.id))).toHaveLength(1);
    });

    it('answers 404 for an unknown plan', async () => {
      expectErrorEnvelope(await update(UNKNOWN_ID, { price_ugx: 1 }), 404, 'not_found', 'Subscription plan not found.');
      expectErrorEnvelope(await remove(UNKNOWN_ID), 404, 'not_found', 'Subscription plan not found.');
    });

    it('counts current subscribers only', async () => {
      const plan = await createOk();
      const a = (await registerUser(t)).user;
      const b = (await registerUser(t)).user;
      await subscribe(a.id, plan.id);
      await subscribe(b.id, plan.id);
      await t.request('PUT', `/api/admin/subscribers/${b.id}/manage-subscription`, {
        body: { action: 'deactivate' },
        token: adminToken,
      });
      expect((await adminList()).find((p) => p.id === plan.id)!.subscriber_count).toBe(1);
    });
  });

  describe('validation', () => {
    it.each([
      ['negative price', { price_ugx: -1 }, 'price_ugx'],
      ['fractional price', { price_ugx: 1.5 }, 'price_ugx'],
      ['non-integer display order', { display_order: 2.5 }, 'display_order'],
      ['a date without T', { global_expiry_date: '2026-12-31 23:59' }, 'global_expiry_date'],
      ['empty features', { features: [] }, 'features'],
      ['a day that does not exist', { global_expiry_date: '2026-02-31T10:00' }, 'global_expiry_date'],
      ['year 0000 (Postgres cannot store it)', { global_expiry_date: '0000-01-01T00:00' }, 'global_expiry_date'],
      ['a blank name', { plan_name: '   ' }, 'plan_name'],
      ['a missing expiry', { global_expiry_date: undefined }, 'global_expiry_date'],
    ])('refuses %s with 400 and an issue', async (_name, overrides, path) => {
      const res = await create(newPlan(overrides));
      expectErrorEnvelope(res, 400, 'validation_error');
      const body = ApiErrorBody.parse(res.json);
      expect(body.error.issues?.map((i) => i.path)).toContain(path);
    });

    it('refuses bad partial updates and empty ones', async () => {
      const plan = await createOk();
      expectErrorEnvelope(await update(plan.id, { price_ugx: -5 }), 400, 'validation_error');
      expectErrorEnvelope(await update(plan.id, { global_expiry_date: '31/12/2026' }), 400, 'validation_error');
      expectErrorEnvelope(await update(plan.id, { global_expiry_date: '2027-02-29T10:00' }), 400, 'validation_error');
      expectErrorEnvelope(await update(plan.id, { global_expiry_date: '0000-01-01T00:00' }), 400, 'validation_error');
      expectErrorEnvelope(await update(plan.id, {}), 400, 'validation_error');
      expectErrorEnvelope(await update('not-an-id', { price_ugx: 1 }), 400, 'validation_error');
    });
  });

  describe('customer list', () => {
    it('lists only purchasable plans, by display order then name, price as text', async () => {
      // A fresh app so plans from other tests do not interfere.
      const own = await createTestApp(kind);
      try {
        const token = await loginAdmin(own);
        const userTok = (await registerUser(own)).token;
        const make = async (overrides: Record<string, unknown>) => {
          const res = await own.request('POST', '/api/admin/subscription-plans', {
            body: newPlan(overrides),
            token,
          });
          expect(res.status).toBe(201);
          const { plan } = AdminPlanResponse.parse(res.json);
          await stockPlan(own.deps.database.db, plan.id); // a plan without movies is never listed
          return plan;
        };
        await make({ plan_name: 'Zeta', display_order: 1, price_ugx: 10_000 });
        await make({ plan_name: 'Alpha', display_order: 1, price_ugx: 0 });
        await make({ plan_name: 'First', display_order: -1, price_ugx: 1_234_567 });
        await make({ plan_name: 'Inactive', is_active: false });
        await make({ plan_name: 'Hidden', is_visible: false });
        await make({ plan_name: 'Expired', global_expiry_date: '2026-11-22T11:59' }); // 08:59Z, before 09:00Z
        const shortLived = await make({ plan_name: 'Short', display_order: 5, global_expiry_date: '2026-11-23T12:00' });

        const list = async () => {
          const res = await own.request('GET', '/api/users/subscription-plans', { token: userTok });
          expect(res.status).toBe(200);
          return CustomerPlanList.parse(res.json).plans;
        };
        const plans = await list();
        expect(plans.map((p) => p.plan_name)).toEqual(['First', 'Alpha', 'Zeta', 'Short']);
        expect(plans.map((p) => p.price_ugx)).toEqual(['1234567', '0', '10000', '25000']);
        expect(plans[3]).toEqual({
          id: shortLived.id,
          plan_name: 'Short',
          price_ugx: '25000',
          description: 'Thirty days of films',
          features: ['Unlimited downloads', 'HD quality'],
          display_order: 5,
          global_expiry_date: '2026-11-23T12:00',
          expires_at: '2026-11-23T09:00:00.000Z',
          // The default cut-off (6 hours) and warning (72 hours) before that end: decision 0176.
          sale_ends_at: '2026-11-23T03:00:00.000Z',
          warn_from: '2026-11-20T09:00:00.000Z',
          // Its one movie is Kinayuganda: the English rule does not concern it.
          includes_english: false,
        });
        expect(plans[0]).not.toHaveProperty('is_active');
        expect(plans[0]).not.toHaveProperty('subscriber_count');

        own.clock.advance(DAY_MS); // exactly the short plan's expiry: no longer purchasable
        expect((await list()).map((p) => p.plan_name)).toEqual(['First', 'Alpha', 'Zeta']);

        // Admins still see every plan (admin sessions last 12 hours: sign in again).
        const all = await own.request('GET', '/api/admin/subscription-plans', { token: await loginAdmin(own) });
        expect(AdminPlanList.parse(all.json).plans).toHaveLength(7);
      } finally {
        await own.close();
      }
    });

    it('is readable by users, not by guests', async () => {
      expect((await customerList()).length).toBeGreaterThanOrEqual(0);
      expectErrorEnvelope(await t.request('GET', '/api/users/subscription-plans'), 401, 'unauthenticated');
      expectErrorEnvelope(
        await t.request('GET', '/api/admin/subscription-plans', { token: userToken }),
        403,
        'forbidden',
      );
      expectErrorEnvelope(
        await t.request('POST', '/api/admin/subscription-plans', { body: newPlan(), token: userToken }),
        403,
        'forbidden',
      );
    });
  });

  describe('expiry change', () => {
    it('moves every current subscriber of the plan to the new expiry, and no one else', async () => {
      const plan = await createOk({ global_expiry_date: '2026-12-31T23:59' });
      const other = await createOk({ global_expiry_date: '2026-12-31T23:59' });
      const a = await registerUser(t);
      const b = await registerUser(t);
      const lapsed = await registerUser(t);
      const elsewhere = await registerUser(t);
      for (const u of [a, b, lapsed]) expect((await subscribe(u.user.id, plan.id)).status).toBe(200);
      expect((await subscribe(elsewhere.user.id, other.id)).status).toBe(200);
      await t.request('PUT', `/api/admin/subscribers/${lapsed.user.id}/manage-subscription`, {
        body: { action: 'deactivate' },
        token: adminToken,
      });
      const lapsedEnd = (await db().select().from(users).where(eq(users.id, lapsed.user.id)))[0]!.subscriptionEndDate;

      const res = await update(plan.id, { global_expiry_date: '2027-01-31T12:00' });
      expect(res.status).toBe(200);
      const updated = AdminPlanResponse.parse(res.json).plan;
      expect(updated).toMatchObject({
        global_expiry_date: '2027-01-31T12:00',
        expires_at: '2027-01-31T09:00:00.000Z',
        subscriber_count: 2,
      });

      const newExpiry = kampalaLocalToDate('2027-01-31T12:00');
      for (const u of [a, b]) {
        const profile = UserProfile.parse((await t.request('GET', '/api/auth/profile', { token: u.token })).json);
        expect(profile.isSubscribed).toBe(true);
        expect(profile.subscription_end_date).toBe(newExpiry.toISOString());
      }
      const end = async (id: string) =>
        (await db().select().from(users).where(eq(users.id, id)))[0]!.subscriptionEndDate;
      expect(await end(lapsed.user.id)).toEqual(lapsedEnd);
      expect((await end(elsewhere.user.id))!.toISOString()).toBe(other.expires_at);
    });
  });
});
