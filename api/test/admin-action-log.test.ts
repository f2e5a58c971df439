import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type TestApp,
  capturingLogger,
  createAgentAs,
  createTestApp,
  loginAdmin,
  registerUser,
  testDatabases,
} from './harness.ts';

/** Every change an admin makes to a person names the admin in the log (issue 15/22, decision 0207). */
describe.each(testDatabases)('admin actions on a person are logged with the admin on %s', (kind) => {
  let t: TestApp;
  let log: ReturnType<typeof capturingLogger>;
  let adminToken: string;
  let adminId: string;

  beforeAll(async () => {
    log = capturingLogger();
    t = await createTestApp(kind, { logger: log.logger });
    adminToken = await loginAdmin(t);
    adminId = (await t.request('GET', '/api/auth/profile', { token: adminToken })).json.id as string;
  });
  afterAll(() => t.close());

  const actions = () => log.entries().filter((e) => e.msg === 'admin action');
  const expectLogged = (action: string, target: Record<string, unknown>) =>
    expect(actions()).toContainEqual(expect.objectContaining({ level: 30, adminId, action, ...target }));

  it('on a subscriber: plan, extra re-download, password reset and deletion', async () => {
    const person = await registerUser(t);
    const userId = person.user.id as string;
    const plan = await t.request('POST', '/api/admin/subscription-plans', {
      body: { plan_name: 'Logged', price_ugx: 25_000, features: ['Downloads'], global_expiry_date: '2030-12-31T23:59' },
      token: adminToken,
    });
    expect(plan.status, plan.text).toBe(201);
    const managed = await t.request('PUT', `/api/admin/subscribers/${userId}/manage-subscription`, {
      body: { action: 'activate_extend', subscription_plan_id: plan.json.plan.id },
      token: adminToken,
    });
    expect(managed.status, managed.text).toBe(200);
    expectLogged('subscription_managed', { userId, detail: 'activate_extend' });

    const granted = await t.request('POST', `/api/admin/subscribers/${userId}/redownloads`, { token: adminToken });
    expect(granted.status, granted.text).toBe(200);
    expectLogged('redownload_granted', { userId });

    const reset = await t.request('POST', `/api/admin/subscribers/${userId}/reset-password`, { token: adminToken });
    expect(reset.status, reset.text).toBe(200);
    expectLogged('password_reset', { userId });
    // The line names who and whom, never the new password.
    expect(JSON.stringify(log.entries())).not.toContain(reset.json.newPassword as string);

    const deleted = await t.request('DELETE', `/api/admin/subscribers/${userId}`, { token: adminToken });
    expect(deleted.status, deleted.text).toBe(200);
    expectLogged('subscriber_deleted', { userId });
  });

  it('on an agent: creation, phone change, password reset and deletion', async () => {
    const { agent } = await createAgentAs(t, adminToken);
    const agentId = agent.id as string;
    expectLogged('agent_created', { agentId });

    const updated = await t.request('PUT', `/api/agents/${agentId}`, {
      body: { phone: '0772000999' },
      token: adminToken,
    });
    expect(updated.status, updated.text).toBe(200);
    expectLogged('agent_updated', { agentId });

    const reset = await t.request('POST', `/api/agents/${agentId}/reset-password`, { body: {}, token: adminToken });
    expect(reset.status, reset.text).toBe(200);
    expectLogged('agent_password_reset', { agentId });
    expect(JSON.stringify(log.entries())).not.toContain(reset.json.newPassword as string);

    const deleted = await t.request('DELETE', `/api/agents/${agentId}`, { token: adminToken });
    expect(deleted.status, deleted.text).toBe(200);
    expectLogged('agent_deleted', { agentId });
  });

  it('not when the action was refused', async () => {
    const before = actions().length;
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(
      (await t.request('POST', `/api/admin/subscribers/${missing}/reset-password`, { token: adminToken })).status,
    ).toBe(404);
    expect(actions()).toHaveLength(before);
  });
});
