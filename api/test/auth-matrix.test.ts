import { randomUUID } from 'node:crypto';
import { type Access, type Contract, allContracts } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  type TestApp,
  type TestResponse,
  createAgentAs,
  createTestApp,
  freshIp,
  loginAdmin,
  registerUser,
  testDatabases,
} from './harness.ts';

type Persona = 'guest' | 'user' | 'agent' | 'admin';
const personas: Persona[] = ['guest', 'user', 'agent', 'admin'];

/** What each access rule answers each persona: a 401/403 status, or 'allowed' (anything but 401/403). */
const expected: Record<Access, Record<Persona, 401 | 403 | 'allowed'>> = {
  public: { guest: 'allowed', user: 'allowed', agent: 'allowed', admin: 'allowed' },
  // A valid session of the wrong kind is refused (403) but stays signed in; only no/ended session is 401.
  user: { guest: 401, user: 'allowed', agent: 403, admin: 'allowed' },
  agent: { guest: 401, user: 403, agent: 'allowed', admin: 403 },
  account: { guest: 401, user: 'allowed', agent: 'allowed', admin: 'allowed' },
  admin: { guest: 401, user: 403, agent: 403, admin: 'allowed' },
};

const cases = allContracts.flatMap((contract) =>
  personas.map((persona) => ({
    name: `${contract.method.toUpperCase()} /api${contract.path} (${contract.access}) as ${persona}`,
    contract,
    persona,
  })),
);

describe.each(testDatabases)('access matrix over every contract on %s', (kind) => {
  let t: TestApp;
  let user: { email: string; password: string };
  let agent: { email: string; password: string };
  beforeAll(async () => {
    t = await createTestApp(kind);
    const adminToken = await loginAdmin(t);
    const registered = await registerUser(t);
    user = { email: registered.body.email, password: registered.body.password };
    const created = await createAgentAs(t, adminToken);
    agent = { email: created.body.email, password: created.password };
  });
  afterAll(() => t.close());

  it('covers every contract', () => {
    expect(cases).toHaveLength(allContracts.length * personas.length);
    expect(new Set(allContracts.map((c) => c.access))).toEqual(new Set(Object.keys(expected)));
  });

  /** Signs the persona in fresh (an earlier case may have logged it out); null for a guest. */
  async function signIn(persona: Persona): Promise<string | undefined> {
    if (persona === 'guest') return undefined;
    if (persona === 'admin') return loginAdmin(t);
    const res =
      persona === 'user'
        ? await t.request('POST', '/api/auth/login', {
            body: { identifier: user.email, password: user.password },
            ip: freshIp(),
          })
        : await t.request('POST', '/api/auth/agent/login', {
            body: { email: agent.email, password: agent.password },
            ip: freshIp(),
          });
    if (res.status !== 200) throw new Error(`${persona} sign-in failed: ${res.status} ${res.text}`);
    return res.json.token;
  }

  async function call(contract: Contract, token: string | undefined): Promise<TestResponse> {
    const params = Object.fromEntries([...contract.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => [m[1], randomUUID()]));
    return t.call(contract, { params, token, ...(contract.method === 'get' ? {} : { body: {} }) });
  }

  it.each(cases)('$name', async ({ contract, persona }) => {
    const token = await signIn(persona);
    const res = await call(contract, token);
    const want = expected[contract.access][persona];
    if (want === 'allowed') {
      expect(res.status, res.text).not.toBe(401);
      expect(res.status, res.text).not.toBe(403);
      expect(res.status, res.text).toBeLessThan(500);
    } else {
      expect(res.status, res.text).toBe(want);
      expect(res.json).toEqual({
        error: {
          code: want === 401 ? 'unauthenticated' : 'forbidden',
          message: expect.any(String),
          requestId: res.headers.get('x-request-id'),
        },
      });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('uses personas that are what they claim (control for the matrix)', async () => {
    const admin = await t.request('GET', '/api/auth/profile', { token: await signIn('admin') });
    expect(admin.json).toMatchObject({ email: ADMIN.email, isAdmin: true });
    const plain = await t.request('GET', '/api/auth/profile', { token: await signIn('user') });
    expect(plain.json).toMatchObject({ email: user.email, isAdmin: false });
    const agentMe = await t.request('GET', '/api/auth/agent/profile', { token: await signIn('agent') });
    expect(agentMe.json).toMatchObject({ kind: 'agent', email: agent.email });
  });
});
