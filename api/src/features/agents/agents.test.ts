import {
  AgentAuthResponse,
  AgentList,
  CreateAgentResponse,
  Message,
  ResetAgentPasswordResponse,
  UpdateAgentResponse,
} from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents, mailOutbox, sessions, smsOutbox } from '../../db/schema.ts';
import {
  ADMIN,
  type TestApp,
  createAgentAs,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  newAgent,
  testDatabases,
} from '../../../test/harness.ts';

const INVALID_AGENT = 'Invalid agent credentials. Please try again.';
const UNKNOWN_ID = '7f1c9a52-3b1e-4c6d-9a8b-2e5f4d3c2b1a';

describe.each(testDatabases)('agents on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { PUBLIC_URL: 'https://filamu.example' } });
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const db = () => t.deps.database.db;
  const create = (body: Record<string, unknown>) => t.request('POST', '/api/agents', { body, token: adminToken });
  const update = (id: string, body: Record<string, unknown>) =>
    t.request('PUT', `/api/agents/${id}`, { body, token: adminToken });
  const agentLogin = (email: string, password: string) =>
    t.request('POST', '/api/auth/agent/login', { body: { email, password }, ip: freshIp() });
  const agentProfile = (token: string) => t.request('GET', '/api/auth/agent/profile', { token });
  const storedAgent = async (id: string) => (await db().select().from(agents).where(eq(agents.id, id)))[0];
  const mailTo = (address: string) => db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, address));

  describe('create', () => {
    it.each([
      ['whatsapp', false, false],
      ['email', true, false],
      ['sms', false, true],
      ['both', true, true],
      ['none', false, false],
    ] as const)('creates one with credentials via %s', async (via, email, sms) => {
      const whatsapp = via !== 'none';
      const body = newAgent({ send_credentials_via: via, email: `Agent.${via}.${kind}@Example.com` });
      const res = await create(body);
      expect(res.status).toBe(201);
      const parsed = CreateAgentResponse.parse(res.json);
      const address = `agent.${via}.${kind}@example.com`;
      expect(parsed.agent).toMatchObject({
        full_name: body.full_name,
        email: address,
        phone: `256${String(body.phone).slice(1)}`,
        is_active: true,
        created_by_email: ADMIN.email,
      });
      expect(parsed.generatedPassword).toMatch(/^[A-Za-z0-9]{16}$/);
      expect(parsed.credentialsEmailQueued).toBe(email);
      expect(parsed.credentialsSmsQueued).toBe(sms);
      const texts = await db().select().from(smsOutbox).where(eq(smsOutbox.toPhone, parsed.agent.phone!));
      expect(texts.map((m) => m.purpose)).toEqual(sms ? ['agent_credentials'] : []);

      if (whatsapp) {
        expect(parsed.whatsappLink).toMatch(/^https:\/\/wa\.me\/2567\d{8}\?text=/);
        expect(parsed.whatsappLink!.startsWith(`https://wa.me/${parsed.agent.phone}?text=`)).toBe(true);
        const text = decodeURIComponent(new URL(parsed.whatsappLink!).searchParams.get('text') ?? '');
        expect(text).toContain(address);
        expect(text).toContain(parsed.generatedPassword);
        expect(text).toContain('https://filamu.example/login');
      } else {
        expect(parsed.whatsappLink).toBeNull();
      }

      const mails = await mailTo(address);
      if (email) {
        expect(mails).toHaveLength(1);
        expect(mails[0]).toMatchObject({ kind: 'agent_credentials', status: 'queued' });
        // Without SMTP nothing delivers it: the password is shown to the admin once, never kept (decision 0107).
        expect(mails[0]!.body).toContain(address);
        expect(mails[0]!.body).not.toContain(parsed.generatedPassword);
      } else {
        expect(mails).toHaveLength(0);
      }

      const row = await storedAgent(parsed.agent.id);
      expect(row!.passwordHash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
      expect(row!.passwordHash).not.toContain(parsed.generatedPassword);

      const login = await agentLogin(address, parsed.generatedPassword);
      expect(login.status).toBe(200);
      expect(AgentAuthResponse.parse(login.json).agent).toMatchObject({
        id: parsed.agent.id,
        isAdmin: false,
        isSubscribed: true,
        subscriptionPlan: 'Agent Access',
      });
    });

    it("defaults send_credentials_via to 'both'", async () => {
      const { send_credentials_via: _via, ...body } = newAgent();
      const res = await create(body);
      expect(res.status).toBe(201);
      const parsed = CreateAgentResponse.parse(res.json);
      expect(parsed.whatsappLink).not.toBeNull();
      expect(parsed.credentialsEmailQueued).toBe(true);
      expect(parsed.credentialsSmsQueued).toBe(true);
      expect(await mailTo(parsed.agent.email)).toHaveLength(1);
    });

    it('refuses a duplicate email (any case) with 409 and queues no mail for it', async () => {
      const first = await createAgentAs(t, adminToken, { send_credentials_via: 'email' });
      const res = await create(newAgent({ email: first.body.email.toUpperCase(), send_credentials_via: 'email' }));
      expectErrorEnvelope(res, 409, 'conflict', 'An agent with this email already exists.');
      expect(await db().select().from(agents).where(eq(agents.email, first.body.email))).toHaveLength(1);
      expect(await mailTo(first.body.email)).toHaveLength(1);
    });

    it('refuses a duplicate phone in another spelling with 409', async () => {
      const first = await createAgentAs(t, adminToken);
      const res = await create(newAgent({ phone: `+256 ${String(first.body.phone).slice(1)}` }));
      expectErrorEnvelope(res, 409, 'conflict', 'An agent with this phone number already exists.');
    });

    it.each([
      ['a missing phone', { phone: undefined }, ['phone']],
      ['a bad email', { email: 'agent-at-example' }, ['email']],
      ['a bad phone and a blank name', { phone: '12345', full_name: ' ' }, ['phone', 'full_name']],
      ['an unknown channel', { send_credentials_via: 'pigeon' }, ['send_credentials_via']],
    ])('refuses %s with 400 and names the fields', async (_name, overrides, fields) => {
      const body = JSON.parse(JSON.stringify(newAgent(overrides)));
      const res = await create(body);
      expectErrorEnvelope(res, 400, 'validation_error');
      const paths = res.json.error.issues.map((i: { path: string }) => i.path);
      for (const field of fields) expect(paths).toContain(field);
      if (typeof body.email === 'string' && body.email.includes('@')) {
        expect(await db().select().from(agents).where(eq(agents.email, body.email))).toHaveLength(0);
      }
    });
  });

  describe('list', () => {
    it('lists every agent newest first with the creating admin', async () => {
      const older = await createAgentAs(t, adminToken);
      t.clock.advance(1000);
      const newer = await createAgentAs(t, adminToken);
      const res = await t.request('GET', '/api/agents', { token: adminToken });
      expect(res.status).toBe(200);
      const list = AgentList.parse(res.json).agents;
      const ids = list.map((a) => a.id);
      expect(ids.indexOf(newer.agent.id)).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(newer.agent.id)).toBeLessThan(ids.indexOf(older.agent.id));
      expect(ids[0]).toBe(newer.agent.id);
      const times = list.map((a) => Date.parse(a.created_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      for (const agent of list) expect(agent.created_by_email).toBe(ADMIN.email);
      expect(JSON.stringify(res.json)).not.toMatch(/password/i);
    });
  });

  describe('update', () => {
    it('changes only what is sent and stores the phone canonical', async () => {
      const { agent } = await createAgentAs(t, adminToken);
      const renamed = await update(agent.id, { full_name: 'Renamed Agent' });
      expect(renamed.status).toBe(200);
      expect(UpdateAgentResponse.parse(renamed.json).agent).toEqual({ ...agent, full_name: 'Renamed Agent' });

      const rephoned = await update(agent.id, { phone: '+256 700 123 987' });
      expect(rephoned.status).toBe(200);
      expect(rephoned.json.agent).toMatchObject({ full_name: 'Renamed Agent', phone: '256700123987' });
      expect(await storedAgent(agent.id)).toMatchObject({
        fullName: 'Renamed Agent',
        phone: '256700123987',
        email: agent.email,
        isActive: true,
      });
    });

    it('keeps the email locked', async () => {
      const { agent } = await createAgentAs(t, adminToken);
      const res = await update(agent.id, { full_name: 'Still Same Email', email: 'changed@example.com' });
      expect(res.status).toBe(200);
      expect((await storedAgent(agent.id))!.email).toBe(agent.email);
    });

    it('refuses {} and an invalid phone with 400', async () => {
      const { agent } = await createAgentAs(t, adminToken);
      expectErrorEnvelope(await update(agent.id, {}), 400, 'validation_error', 'No changes');
      const bad = await update(agent.id, { phone: '0812345678' });
      expectErrorEnvelope(bad, 400, 'validation_error');
      expect(bad.json.error.issues.map((i: { path: string }) => i.path)).toEqual(['phone']);
    });

    it('refuses a phone another agent holds with 409', async () => {
      const one = await createAgentAs(t, adminToken);
      const two = await createAgentAs(t, adminToken);
      expectErrorEnvelope(await update(two.agent.id, { phone: one.body.phone }), 409, 'conflict');
      expect((await storedAgent(two.agent.id))!.phone).toBe(two.agent.phone);
    });

    it('deactivating signs the agent out at once and refuses its sign-in like a wrong password', async () => {
      const { agent, body, password } = await createAgentAs(t, adminToken);
      const { token } = AgentAuthResponse.parse((await agentLogin(body.email, password)).json);
      expect((await agentProfile(token)).status).toBe(200);

      const res = await update(agent.id, { is_active: false });
      expect(res.status).toBe(200);
      expect(res.json.agent.is_active).toBe(false);
      expectErrorEnvelope(await agentProfile(token), 401, 'unauthenticated');

      const inactive = await agentLogin(body.email, password);
      const wrong = await agentLogin(body.email, 'not-the-password');
      expectErrorEnvelope(inactive, 401, 'unauthenticated', INVALID_AGENT);
      expectErrorEnvelope(wrong, 401, 'unauthenticated', INVALID_AGENT);
      expect({ ...inactive.json.error, requestId: '' }).toEqual({ ...wrong.json.error, requestId: '' });

      const live = await db().select().from(sessions).where(eq(sessions.agentId, agent.id));
      expect(live.every((s) => s.revokedAt !== null)).toBe(true);

      expect((await update(agent.id, { is_active: true })).json.agent.is_active).toBe(true);
      // The old session stays ended; a new sign-in works.
      expectErrorEnvelope(await agentProfile(token), 401, 'unauthenticated');
      const again = await agentLogin(body.email, password);
      expect(again.status).toBe(200);
      expect((await agentProfile(again.json.token)).status).toBe(200);
    });
  });

  describe('reset password', () => {
    it('ends the sessions and replaces the password', async () => {
      const { agent, body, password } = await createAgentAs(t, adminToken);
      const { token } = AgentAuthResponse.parse((await agentLogin(body.email, password)).json);
      const res = await t.request('POST', `/api/agents/${agent.id}/reset-password`, { token: adminToken });
      expect(res.status).toBe(200);
      const reset = ResetAgentPasswordResponse.parse(res.json);
      expect(reset.newPassword).toMatch(/^[A-Za-z0-9]{16}$/);
      expect(reset.newPassword).not.toBe(password);
      expect(reset.whatsappLink).toMatch(new RegExp(`^https://wa\\.me/${agent.phone}\\?text=`));
      expect(decodeURIComponent(reset.whatsappLink!)).toContain(reset.newPassword);
      // A reset reads as a reset, not a welcome to an account the agent already has.
      const resetText = new URL(reset.whatsappLink!).searchParams.get('text') ?? '';
      expect(resetText).toContain('has reset your Filamu agent password');
      expect(resetText).toContain(`New password: ${reset.newPassword}`);
      expect(resetText).not.toMatch(/account is ready|welcome/i);
      // Without a channel nothing is sent: the admin passes it on (as before SMS).
      expect(reset).toMatchObject({ credentialsEmailQueued: false, credentialsSmsQueued: false });

      expectErrorEnvelope(await agentProfile(token), 401, 'unauthenticated');
      expectErrorEnvelope(await agentLogin(body.email, password), 401, 'unauthenticated', INVALID_AGENT);
      const fresh = await agentLogin(body.email, reset.newPassword);
      expect(fresh.status).toBe(200);
      const row = await storedAgent(agent.id);
      expect(row!.passwordHash.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
      expect(row!.passwordHash).not.toContain(reset.newPassword);
    });
  });

  describe('delete', () => {
    it('removes the agent, ends its session, and then answers 404 for that id', async () => {
      const { agent, body, password } = await createAgentAs(t, adminToken);
      const { token } = AgentAuthResponse.parse((await agentLogin(body.email, password)).json);
      const res = await t.request('DELETE', `/api/agents/${agent.id}`, { token: adminToken });
      expect(res.status).toBe(200);
      expect(Message.parse(res.json).message).toBe('Agent deleted successfully.');
      expect(await storedAgent(agent.id)).toBeUndefined();
      expectErrorEnvelope(await agentProfile(token), 401, 'unauthenticated');
      expectErrorEnvelope(await agentLogin(body.email, password), 401, 'unauthenticated', INVALID_AGENT);

      expectErrorEnvelope(await update(agent.id, { full_name: 'Ghost' }), 404, 'not_found', 'Agent not found.');
      expectErrorEnvelope(
        await t.request('DELETE', `/api/agents/${agent.id}`, { token: adminToken }),
        404,
        'not_found',
      );
      expectErrorEnvelope(
        await t.request('POST', `/api/agents/${agent.id}/reset-password`, { token: adminToken }),
        404,
        'not_found',
      );
      const listed = AgentList.parse((await t.request('GET', '/api/agents', { token: adminToken })).json);
      expect(listed.agents.map((a) => a.id)).not.toContain(agent.id);
    });
  });

  describe('ids', () => {
    it.each([
      ['PUT', '/api/agents/:id', { full_name: 'X' }],
      ['DELETE', '/api/agents/:id', undefined],
      ['POST', '/api/agents/:id/reset-password', undefined],
    ])('%s %s answers 400 for an invalid id and 404 for an unknown one', async (method, path, body) => {
      for (const bad of ['not-a-uuid', '123', "1' or '1'='1"]) {
        const res = await t.request(method, path.replace(':id', encodeURIComponent(bad)), { body, token: adminToken });
        expectErrorEnvelope(res, 400, 'validation_error');
        expect(res.json.error.issues[0].path).toBe('id');
      }
      const res = await t.request(method, path.replace(':id', UNKNOWN_ID), { body, token: adminToken });
      expectErrorEnvelope(res, 404, 'not_found', 'Agent not found.');
    });
  });
});
