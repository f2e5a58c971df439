import { AgentAuthResponse, AgentProfile, AuthResponse } from '@filamu/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema.ts';
import {
  type TestApp,
  createAgentAs,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  newUser,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';

const DAY = 86_400_000;

describe.each(testDatabases)('sessions and tokens on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const login = (identifier: string, password: string, deviceId?: string) =>
    t.request('POST', '/api/auth/login', {
      body: { identifier, password, ...(deviceId && { currentDeviceId: deviceId }) },
      ip: freshIp(),
    });
  const agentLogin = (email: string, password: string, deviceId?: string) =>
    t.request('POST', '/api/auth/agent/login', {
      body: { email, password, ...(deviceId && { currentDeviceId: deviceId }) },
      ip: freshIp(),
    });
  const profile = (token: string, deviceId?: string) => t.request('GET', '/api/auth/profile', { token, deviceId });
  const agentProfile = (token: string, deviceId?: string) =>
    t.request('GET', '/api/auth/agent/profile', { token, deviceId });
  const liveSessions = (column: typeof sessions.userId | typeof sessions.agentId, id: string) =>
    t.deps.database.db
      .select()
      .from(sessions)
      .where(and(eq(column, id), isNull(sessions.revokedAt)));

  describe('single device', () => {
    it('signs a user out of device A the moment it signs in on device B', async () => {
      const { body, user } = await registerUser(t);
      const a = AuthResponse.parse((await login(body.email, body.password, 'device-A')).json);
      expect((await profile(a.token, 'device-A')).status).toBe(200);
      const resB = await login(body.email, body.password, 'device-B');
      const b = AuthResponse.parse(resB.json);
      expect(b.user.deviceIDs).toEqual(['device-B']);

      // Device A is told why, so being sent to /login is not mistaken for a fault.
      expectErrorEnvelope(
        await profile(a.token, 'device-A'),
        401,
        'unauthenticated',
        'You signed in on another device. Only one device can be signed in at a time.',
      );
      expectErrorEnvelope(await profile(a.token), 401, 'unauthenticated');
      expect((await profile(b.token, 'device-B')).status).toBe(200);
      const live = await liveSessions(sessions.userId, user.id);
      expect(live.map((s) => s.deviceId)).toEqual(['device-B']);
    });

    it('signs an agent out of device A the moment it signs in on device B', async () => {
      const { body, agent, password } = await createAgentAs(t, adminToken);
      const resA = await agentLogin(body.email, password, 'agent-A');
      expect(resA.status).toBe(200);
      const a = AgentAuthResponse.parse(resA.json);
      expect((await agentProfile(a.token, 'agent-A')).status).toBe(200);
      const b = AgentAuthResponse.parse((await agentLogin(body.email, password, 'agent-B')).json);

      expectErrorEnvelope(await agentProfile(a.token, 'agent-A'), 401, 'unauthenticated');
      const me = await agentProfile(b.token, 'agent-B');
      expect(me.status).toBe(200);
      expect(AgentProfile.parse(me.json)).toMatchObject({ id: agent.id, email: body.email });
      expect((await liveSessions(sessions.agentId, agent.id)).map((s) => s.deviceId)).toEqual(['agent-B']);
    });
  });

  describe('tokens that are not a live session of the right kind', () => {
    let user: { token: string; id: string };
    let agent: { token: string };
    beforeAll(async () => {
      const registered = await registerUser(t, { currentDeviceId: 'tok-device' });
      user = { token: registered.token, id: registered.user.id };
      const created = await createAgentAs(t, adminToken);
      agent = AgentAuthResponse.parse((await agentLogin(created.body.email, created.password, 'agent-tok')).json);
    });

    it('accepts the genuine tokens (the control for the cases below)', async () => {
      expect((await profile(user.token)).status).toBe(200);
      expect((await profile(user.token, 'tok-device')).status).toBe(200);
      expect((await agentProfile(agent.token)).status).toBe(200);
    });

    it('refuses a missing or non-bearer Authorization header', async () => {
      expectErrorEnvelope(await t.request('GET', '/api/auth/profile'), 401, 'unauthenticated');
      for (const authorization of [`Token ${user.token}`, user.token, 'Bearer', 'Bearer ', `Bearer  ${user.token}`]) {
        const res = await t.request('GET', '/api/auth/profile', { headers: { authorization } });
        expectErrorEnvelope(res, 401, 'unauthenticated');
      }
    });

    it('refuses a malformed token', async () => {
      for (const token of ['abc', 'a.b.c', 'eyJhbGciOiJIUzI1NiJ9.e30.', user.token.split('.').slice(0, 2).join('.')]) {
        expectErrorEnvelope(await profile(token), 401, 'unauthenticated');
      }
    });

    it('refuses a token whose signature or payload was tampered with', async () => {
      const [header, payload, signature] = user.token.split('.') as [string, string, string];
      const middle = Math.floor(signature.length / 2);
      const flipped = signature[middle] === 'A' ? 'B' : 'A';
      const badSignature = `${header}.${payload}.${signature.slice(0, middle)}${flipped}${signature.slice(middle + 1)}`;
      expectErrorEnvelope(await profile(badSignature), 401, 'unauthenticated');

      const claims = decodeJwt(user.token);
      const forged = Buffer.from(JSON.stringify({ ...claims, knd: 'agent' })).toString('base64url');
      expectErrorEnvelope(await agentProfile(`${header}.${forged}.${signature}`), 401, 'unauthenticated');
      const noneAlg = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      expectErrorEnvelope(await profile(`${noneAlg}.${payload}.`), 401, 'unauthenticated');
    });

    it('refuses a token with the same claims signed by another key', async () => {
      const claims = decodeJwt(user.token);
      const otherKey = new TextEncoder().encode('a-completely-different-secret-of-32-chars-or-more');
      const foreign = await new SignJWT({ sid: claims.sid, knd: claims.knd })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub!)
        .setIssuer('filamu')
        .setAudience('filamu-api')
        .setIssuedAt()
        .setExpirationTime(claims.exp!)
        .sign(otherKey);
      expectErrorEnvelope(await profile(foreign), 401, 'unauthenticated');
      // The real token still works: the foreign one failed on its signature alone.
      expect((await profile(user.token)).status).toBe(200);
    });

    it('answers 403, not 401, to a valid session of the wrong kind, and the session stays valid', async () => {
      expectErrorEnvelope(
        await agentProfile(user.token),
        403,
        'forbidden',
        'This is only available to agent accounts.',
      );
      expectErrorEnvelope(
        await profile(agent.token),
        403,
        'forbidden',
        'Agent accounts cannot do this. Agents already have full library access.',
      );
      expectErrorEnvelope(
        await t.request('PUT', '/api/users/profile', { token: agent.token, body: { fullName: 'Agent As User' } }),
        403,
        'forbidden',
      );
      // Refused, not signed out: both tokens still work where they belong.
      expect((await profile(user.token)).status).toBe(200);
      expect((await agentProfile(agent.token)).status).toBe(200);
    });

    it('refuses a token presented with another X-Device-Id', async () => {
      expectErrorEnvelope(
        await profile(user.token, 'someone-elses-device'),
        401,
        'unauthenticated',
        'This session belongs to another device.',
      );
      expect((await profile(user.token, 'tok-device')).status).toBe(200);
    });

    it('refuses a token whose session row is gone or names another subject', async () => {
      const claims = decodeJwt(user.token);
      const swapped = await t.deps.tokens.sign(
        { sessionId: String(claims.sid), subjectId: '00000000-0000-4000-8000-000000000000', kind: 'user' },
        new Date(t.clock.now().getTime() + DAY),
      );
      expectErrorEnvelope(await profile(swapped), 401, 'unauthenticated');
      const unknownSession = await t.deps.tokens.sign(
        { sessionId: '00000000-0000-4000-8000-000000000000', subjectId: user.id, kind: 'user' },
        new Date(t.clock.now().getTime() + DAY),
      );
      expectErrorEnvelope(await profile(unknownSession), 401, 'unauthenticated');
    });
  });

  describe('expiry', () => {
    it('ends a user session after 30 days', async () => {
      const clock = t.clock;
      const { token } = await registerUser(t);
      clock.advance(29 * DAY);
      expect((await profile(token)).status).toBe(200);
      clock.advance(DAY + 1000);
      expectErrorEnvelope(await profile(token), 401, 'unauthenticated');
    });

    it('ends an admin session after 12 hours', async () => {
      const token = await loginAdmin(t);
      t.clock.advance(11 * 3_600_000);
      expect((await t.request('GET', '/api/agents', { token })).status).toBe(200);
      t.clock.advance(3_600_000 + 1000);
      expectErrorEnvelope(await t.request('GET', '/api/agents', { token }), 401, 'unauthenticated');
      adminToken = await loginAdmin(t);
    });
  });

  describe('concurrency', () => {
    it('leaves exactly one live session after 10 concurrent logins of one account', async () => {
      const { body, user } = await registerUser(t);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => login(body.email, body.password, `race-device-${i}`)),
      );
      // Right passwords are never throttled (decision 0060): all get in, and exactly one session survives.
      expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
      const signedIn = results;
      const live = await liveSessions(sessions.userId, user.id);
      expect(live).toHaveLength(1);
      const statuses = await Promise.all(signedIn.map((r) => profile(r.json.token).then((p) => p.status)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 401)).toHaveLength(signedIn.length - 1);
      const winner = signedIn[statuses.indexOf(200)]!;
      expect(decodeJwt(winner.json.token).sid).toBe(live[0]!.id);
    });

    it('leaves exactly one live session after 10 concurrent agent logins', async () => {
      const { body, agent, password } = await createAgentAs(t, adminToken);
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => agentLogin(body.email, password, `agent-race-${i}`)),
      );
      expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
      const signedIn = results;
      expect(await liveSessions(sessions.agentId, agent.id)).toHaveLength(1);
      const statuses = await Promise.all(signedIn.map((r) => agentProfile(r.json.token).then((p) => p.status)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    });

    it('registers one account from 20 concurrent sign-ups with one email in different cases', async () => {
      const local = `race.${kind}.${Date.now()}`;
      const spellings = (i: number) => {
        const email = `${local}@example.com`;
        return i % 3 === 0 ? email : i % 3 === 1 ? email.toUpperCase() : `${local.toUpperCase()}@Example.Com`;
      };
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.request('POST', '/api/auth/register', { body: newUser({ email: spellings(i) }), ip: freshIp() }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      for (const r of results.filter((x) => x.status === 409)) expectErrorEnvelope(r, 409, 'conflict');
      const rows = await t.deps.database.db
        .select()
        .from(users)
        .where(eq(users.email, `${local}@example.com`.toLowerCase()));
      expect(rows).toHaveLength(1);
    });

    it('registers one account from 20 concurrent sign-ups with one phone in different spellings', async () => {
      const spellings = ['0772812345', '256772812345', '+256772812345', '+256 772 812 345', '0772-812-345'];
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.request('POST', '/api/auth/register', { body: newUser({ phone: spellings[i % 5] }), ip: freshIp() }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      for (const r of results.filter((x) => x.status === 409)) expectErrorEnvelope(r, 409, 'conflict');
      const rows = await t.deps.database.db.select().from(users).where(eq(users.phone, '256772812345'));
      expect(rows).toHaveLength(1);
    });
  });
});
