import {
  AdminPlanResponse,
  ManageSubscriptionResponse,
  Message,
  SubscriberList,
  UserProfile,
  formatDate,
} from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, sessions, users } from '../../db/schema.ts';
import {
  ADMIN,
  type TestApp,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { PLAN_IN_USE } from '../plans/plans.ts';

const UNKNOWN_ID = '7f1c9a52-3b1e-4c6d-9a8b-2e5f4d3c2b1a';
const HOUR_MS = 3_600_000;

describe.each(testDatabases)('admin subscribers on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let adminId: string;
  let plan: { id: string; plan_name: string; expires_at: string };
  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
    adminId = (await t.request('GET', '/api/auth/profile', { token: adminToken })).json.id;
    plan = await createPlan({ plan_name: 'Monthly', global_expiry_date: '2026-12-31T23:59' });
  });
  afterAll(() => t.close());

  const db = () => t.deps.database.db;
  async function createPlan(body: Record<string, unknown>) {
    const res = await t.request('POST', '/api/admin/subscription-plans', {
      body: { price_ugx: 25_000, features: ['Downloads'], ...body },
      token: adminToken,
    });
    if (res.status !== 201) throw new Error(`create plan failed: ${res.status} ${res.text}`);
    return AdminPlanResponse.parse(res.json).plan;
  }
  const manage = (id: string, body: Record<string, unknown>, token = adminToken) =>
    t.request('PUT', `/api/admin/subscribers/${id}/manage-subscription`, { body, token });
  const activate = (id: string, planId: string) =>
    manage(id, { action: 'activate_extend', subscription_plan_id: planId });
  const remove = (id: string, token = adminToken) => t.request('DELETE', `/api/admin/subscribers/${id}`, { token });
  const profile = async (token: string) => {
    const res = await t.request('GET', '/api/auth/profile', { token });
    expect(res.status).toBe(200);
    return UserProfile.parse(res.json);
  };
  const list = async () => {
    const res = await t.request('GET', '/api/admin/subscribers', { token: adminToken });
    expect(res.status).toBe(200);
    return SubscriberList.parse(res.json).subscribers;
  };

  describe('list', () => {
    it('lists every user, admins too, newest first, with the derived status', async () => {
      t.clock.advance(1000);
      const older = await registerUser(t);
      t.clock.advance(1000);
      const newer = await registerUser(t);
      await activate(older.user.id, plan.id);

      const subscribers = await list();
      const ids = subscribers.map((s) => s.id);
      expect(ids.indexOf(newer.user.id)).toBeLessThan(ids.indexOf(older.user.id));
      expect(ids.indexOf(older.user.id)).toBeLessThan(ids.indexOf(adminId));
      const created = subscribers.map((s) => s.created_at);
      expect([...created].sort().reverse()).toEqual(created);

      expect(subscribers.find((s) => s.id === adminId)).toMatchObject({
        email: ADMIN.email,
        is_admin: true,
        is_protected: true,
        issubscribed: false,
        subscription_plan: null,
      });
      expect(subscribers.find((s) => s.id === older.user.id)).toEqual({
        id: older.user.id,
        email: older.body.email,
        full_name: older.body.fullName,
        phone: `256${String(older.body.phone).slice(1)}`,
        // Registered, never confirmed: support texts would not go to it (decision 0214).
        phone_confirmed: false,
        issubscribed: true,
        subscription_plan: 'Monthly',
        subscription_plan_id: plan.id,
        subscription_start_date: t.clock.now().toISOString(),
        subscription_end_date: plan.expires_at,
        is_admin: false,
        is_protected: false,
        extra_redownloads: 0,
        created_at: expect.any(String),
      });
      expect(subscribers.find((s) => s.id === newer.user.id)).toMatchObject({
        issubscribed: false,
        subscription_plan: null,
        subscription_plan_id: null,
        subscription_start_date: null,
        subscription_end_date: null,
      });
    });

    it('searches name, email and phone (local 07… form too) and pages newest first', async () => {
      const stamp = `pg${Date.now().toString(36)}`;
      const made = [];
      for (let i = 0; i < 3; i += 1) {
        t.clock.advance(1000);
        made.push(await registerUser(t, { fullName: `Paging ${stamp} ${i}` }));
      }
      const get = async (query: string) => {
        const res = await t.request('GET', `/api/admin/subscribers?${query}`, { token: adminToken });
        expect(res.status).toBe(200);
        return SubscriberList.parse(res.json);
      };
      const first = await get(`search=${stamp}&page=1&pageSize=2`);
      expect(first).toMatchObject({ total: 3, page: 1, pageSize: 2 });
      expect(first.subscribers.map((s) => s.id)).toEqual([made[2]!.user.id, made[1]!.user.id]);
      const second = await get(`search=${stamp.toUpperCase()}&page=2&pageSize=2`);
      expect(second.subscribers.map((s) => s.id)).toEqual([made[0]!.user.id]);

      const byEmail = await get(`search=${encodeURIComponent(String(made[1]!.body.email))}`);
      expect(byEmail.subscribers.map((s) => s.id)).toEqual([made[1]!.user.id]);
      expect(byEmail.pageSize).toBeNull();
      const byPhone = await get(`search=${String(made[0]!.body.phone)}`);
      expect(byPhone.subscribers.map((s) => s.id)).toEqual([made[0]!.user.id]);
      // A typed % is a percent sign, not a wildcard.
      expect((await get('search=%25')).total).toBe(0);

      const all = await get('');
      expect(all.subscribers).toHaveLength(all.total);
      expectErrorEnvelope(
        await t.request('GET', '/api/admin/subscribers?pageSize=0', { token: adminToken }),
        400,
        'validation_error',
      );
    });

    it('is for admins only', async () => {
      const { token } = await registerUser(t);
      expectErrorEnvelope(await t.request('GET', '/api/admin/subscribers', { token }), 403, 'forbidden');
      expectErrorEnvelope(await t.request('GET', '/api/admin/subscribers'), 401, 'unauthenticated');
    });
  });

  describe('manage subscription', () => {
    it('activates until the plan expiry and deactivates, as the user sees it', async () => {
      const { user, token } = await registerUser(t);
      expect(await profile(token)).toMatchObject({
        isSubscribed: false,
        subscriptionPlan: null,
        subscriptionPlanFeatures: [],
      });

      const res = await activate(user.id, plan.id);
      expect(res.status).toBe(200);
      const body = ManageSubscriptionResponse.parse(res.json);
      expect(body.message).toBe('Subscription activated until 31 Dec 2026.');
      expect(body.message).toBe(`Subscription activated until ${formatDate(plan.expires_at)}.`);
      expect(body.subscriber).toMatchObject({
        id: user.id,
        issubscribed: true,
        subscription_plan: 'Monthly',
        subscription_plan_id: plan.id,
        subscription_start_date: t.clock.now().toISOString(),
        subscription_end_date: plan.expires_at,
      });
      const now = t.clock.now();
      const expiry = new Date(plan.expires_at);
      expect(await profile(token)).toMatchObject({
        isSubscribed: true,
        subscriptionPlan: 'Monthly',
        // The benefits the profile lists are the plan's own features, as the admin wrote them.
        subscriptionPlanFeatures: ['Downloads'],
        subscription_end_date: plan.expires_at,
        daysRemaining: Math.ceil((expiry.getTime() - now.getTime()) / 86_400_000),
      });

      // Extending onto another plan moves the end date to that plan's expiry.
      const later = await createPlan({
        plan_name: 'Annual',
        global_expiry_date: '2027-11-22T12:00',
        features: ['Every Kinayuganda movie', 'Two new English movies a week'],
      });
      const extended = ManageSubscriptionResponse.parse((await activate(user.id, later.id)).json);
      expect(extended.message).toBe('Subscription activated until 22 Nov 2027.');
      expect(await profile(token)).toMatchObject({
        isSubscribed: true,
        subscriptionPlan: 'Annual',
        subscriptionPlanFeatures: ['Every Kinayuganda movie', 'Two new English movies a week'],
        subscription_end_date: later.expires_at,
      });

      t.clock.advance(HOUR_MS);
      const off = await manage(user.id, { action: 'deactivate' });
      expect(off.status).toBe(200);
      const offBody = ManageSubscriptionResponse.parse(off.json);
      expect(offBody.message).toBe('Subscription deactivated.');
      expect(offBody.subscriber).toMatchObject({
        issubscribed: false,
        subscription_end_date: t.clock.now().toISOString(),
      });
      expect(await profile(token)).toMatchObject({ isSubscribed: false, daysRemaining: 0 });
      adminToken = await loginAdmin(t);
    });

    it('refuses an expired plan and an unknown plan', async () => {
      const { user } = await registerUser(t);
      const expired = await createPlan({ plan_name: 'Old', global_expiry_date: '2026-11-22T11:00' });
      const res = await activate(user.id, expired.id);
      expectErrorEnvelope(res, 409, 'conflict', /expired on 22 Nov 2026/);
      expectErrorEnvelope(await activate(user.id, UNKNOWN_ID), 404, 'not_found', 'Subscription plan not found.');
      const [row] = await db().select().from(users).where(eq(users.id, user.id));
      expect(row).toMatchObject({ subscriptionPlanId: null, subscriptionEndDate: null });
    });

    it('validates the request', async () => {
      const { user } = await registerUser(t);
      expectErrorEnvelope(
        await manage(user.id, { action: 'activate_extend', subscription_plan_id: '' }),
        400,
        'validation_error',
        /Please select a subscription plan\./,
      );
      expectErrorEnvelope(await manage(user.id, { action: 'extend' }), 400, 'validation_error');
      expectErrorEnvelope(await manage('nope', { action: 'deactivate' }), 400, 'validation_error');
    });

    it('refuses the protected admin and answers 404 for an unknown user', async () => {
      expectErrorEnvelope(
        await activate(adminId, plan.id),
        403,
        'forbidden',
        'The protected admin account cannot be managed.',
      );
      expectErrorEnvelope(await manage(adminId, { action: 'deactivate' }), 403, 'forbidden');
      expectErrorEnvelope(await manage(UNKNOWN_ID, { action: 'deactivate' }), 404, 'not_found');
    });
  });

  describe('delete', () => {
    it('deletes the user, ends their session and keeps their payments anonymised', async () => {
      const own = await createPlan({ plan_name: 'Paid', global_expiry_date: '2026-12-31T23:59' });
      const { user, token, body } = await registerUser(t);
      await activate(user.id, own.id);
      const now = t.clock.now();
      const [payment] = await db()
        .insert(payments)
        .values({
          userId: user.id,
          planId: own.id,
          planName: own.plan_name,
          amountUgx: 25_000,
          phone: '256772000001',
          status: 'completed',
          expiresAt: now,
          nextCheckAt: now,
        })
        .returning();

      const res = await remove(user.id);
      expect(res.status).toBe(200);
      expect(Message.parse(res.json)).toEqual({
        message: `Subscriber ${body.email} has been deleted successfully`,
      });

      expectErrorEnvelope(await t.request('GET', '/api/auth/profile', { token }), 401, 'unauthenticated');
      expect(await db().select().from(users).where(eq(users.id, user.id))).toEqual([]);
      expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
      const [kept] = await db().select().from(payments).where(eq(payments.id, payment!.id));
      expect(kept).toMatchObject({ userId: null, phone: null, planId: own.id, amountUgx: 25_000, status: 'completed' });
      expect((await list()).map((s) => s.id)).not.toContain(user.id);

      // The kept payment still holds the plan: it cannot be deleted.
      expectErrorEnvelope(
        await t.request('DELETE', `/api/admin/subscription-plans/${own.id}`, { token: adminToken }),
        409,
        'conflict',
        PLAN_IN_USE,
      );

      // The same email and phone can register again as a new account.
      const again = await t.request('POST', '/api/auth/register', { body, ip: freshIp() });
      expect(again.status).toBe(201);
    });

    it('refuses the protected admin, an admin deleting themselves, and unknown users', async () => {
      expectErrorEnvelope(await remove(adminId), 403, 'forbidden', 'The protected admin account cannot be managed.');

      const other = await registerUser(t);
      await db().update(users).set({ isAdmin: true }).where(eq(users.id, other.user.id));
      expectErrorEnvelope(await remove(other.user.id, other.token), 409, 'conflict');
      expect(await db().select().from(users).where(eq(users.id, other.user.id))).toHaveLength(1);

      // Another admin may delete that (unprotected) admin.
      expect((await remove(other.user.id)).status).toBe(200);
      expectErrorEnvelope(await remove(UNKNOWN_ID), 404, 'not_found');
      expectErrorEnvelope(await remove(other.user.id), 404, 'not_found');
    });

    it('is for admins only', async () => {
      const victim = await registerUser(t);
      const { token } = await registerUser(t);
      expectErrorEnvelope(await remove(victim.user.id, token), 403, 'forbidden');
      expectErrorEnvelope(await manage(victim.user.id, { action: 'deactivate' }, token), 403, 'forbidden');
    });
  });
});
