import { AgentAuthResponse, Message } from '@filamu/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema.ts';
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

/** An agent replaces the generated password (issue 20 §8), under the rules a subscriber's change follows. */
describe.each(testDatabases)('an agent changing their password on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const agentLogin = (email: string, password: string, currentDeviceId: string) =>
    t.request('POST', '/api/auth/agent/login', { body: { email, password, currentDeviceId }, ip: freshIp() });
  const change = (token: string, body: Record<string, unknown>) =>
    t.request('POST', '/api/auth/agent/change-password', { token, body });
  const profile = (token: string) => t.request('GET', '/api/auth/agent/profile', { token });

  async function signedInAgent() {
    const { body, agent, password } = await createAgentAs(t, adminToken);
    const res = await agentLogin(body.email, password, 'agent-phone');
    expect(res.status, res.text).toBe(200);
    return {
      email: body.email,
      id: agent.id as string,
      generated: password,
      token: AgentAuthResponse.parse(res.json).token,
    };
  }

  it('replaces the generated password: the old one stops working, the new one signs in, this device stays', async () => {
    const agent = await signedInAgent();
    const res = await change(agent.token, { currentPassword: agent.generated, newPassword: 'my own agent password' });
    expect(res.status, res.text).toBe(200);
    expect(Message.parse(res.json).message).toBe('Password changed successfully.');
    expect((await profile(agent.token)).status).toBe(200);

    expectErrorEnvelope(await agentLogin(agent.email, agent.generated, 'other'), 401, 'unauthenticated');
    const again = await agentLogin(agent.email, 'my own agent password', 'other');
    expect(again.status, again.text).toBe(200);
  });

  it('ends the agent’s other sessions, as a subscriber’s change does', async () => {
    const agent = await signedInAgent();
    // A second live session (say a sign-in racing this one): inserted as a sign-in would leave it.
    const [other] = await t.deps.database.db
      .insert(sessions)
      .values({
        agentId: agent.id,
        deviceId: 'old-tablet',
        expiresAt: new Date(t.clock.now().getTime() + 86_400_000),
        createdAt: t.clock.now(),
        lastSeenAt: t.clock.now(),
      })
      .returning();
    expect(
      (await change(agent.token, { currentPassword: agent.generated, newPassword: 'another good one' })).status,
    ).toBe(200);
    const live = await t.deps.database.db
      .select({ id: sessions.id, device: sessions.deviceId })
      .from(sessions)
      .where(and(eq(sessions.agentId, agent.id), isNull(sessions.revokedAt)));
    expect(live.map((s) => s.device)).toEqual(['agent-phone']);
    const [ended] = await t.deps.database.db.select().from(sessions).where(eq(sessions.id, other!.id));
    expect(ended!.revokedReason).toBe('password_changed');
  });

  it('refuses a wrong current password (400 on currentPassword) and a short new one, changing nothing', async () => {
    const agent = await signedInAgent();
    const wrong = await change(agent.token, { currentPassword: 'not it at all', newPassword: 'long enough pass' });
    expectErrorEnvelope(wrong, 400, 'bad_request', 'Current password is incorrect.');
    expect(wrong.json.error.issues).toEqual([{ path: 'currentPassword', message: 'Current password is incorrect.' }]);
    const short = await change(agent.token, { currentPassword: agent.generated, newPassword: 'short' });
    expectErrorEnvelope(short, 400, 'validation_error');
    expect(short.json.error.issues.map((i: { path: string }) => i.path)).toEqual(['newPassword']);
    expect((await profile(agent.token)).status).toBe(200);
    expect((await agentLogin(agent.email, agent.generated, 'agent-phone')).status).toBe(200);
  });

  it('is for agents only: a subscriber gets 403, nobody signed in 401', async () => {
    const { token, body } = await registerUser(t);
    expectErrorEnvelope(
      await change(token, { currentPassword: body.password, newPassword: 'whatever works' }),
      403,
      'forbidden',
    );
    expectErrorEnvelope(
      await t.request('POST', '/api/auth/agent/change-password', {
        body: { currentPassword: 'x', newPassword: 'whatever works' },
      }),
      401,
      'unauthenticated',
    );
  });
});
