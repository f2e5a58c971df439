import { like, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authThrottle, loginIpFailures } from '../../db/schema.ts';
import {
  ADMIN,
  type TestApp,
  type TestResponse,
  createAgentAs,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { IP_WINDOW_MS, PROOF_MESSAGE } from './ip-ceiling.ts';

const retryAfter = (res: TestResponse) => Number(res.headers.get('retry-after'));

/** 429 with a whole-second Retry-After that the message repeats; returns the seconds. */
function expectRetryAfter(res: TestResponse, message: RegExp) {
  expectErrorEnvelope(res, 429, 'throttled', message);
  const seconds = retryAfter(res);
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThanOrEqual(1);
  // Never the old message, which blamed a right password on "failed attempts".
  expect(res.json.error.message).not.toMatch(/failed attempts/i);
  return seconds;
}

const ACCOUNT_PAUSED =
  /^Sign-in to this account is paused after several wrong passwords\. Try again in \d+ seconds?\.$/;

function expectAccountPaused(res: TestResponse) {
  const seconds = expectRetryAfter(res, ACCOUNT_PAUSED);
  expect(res.json.error.message).toContain(`in ${seconds} second`);
  return seconds;
}

describe.each(testDatabases)('sign-in throttling on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await loginAdmin(t);
  });
  afterAll(() => t.close());

  // Each attempt from its own address unless stated, so only the per-account counter is exercised.
  const login = (identifier: string, password: string, ip = freshIp()) =>
    t.request('POST', '/api/auth/login', { body: { identifier, password }, ip });
  const agentLogin = (email: string, password: string, ip = freshIp()) =>
    t.request('POST', '/api/auth/agent/login', { body: { email, password }, ip });

  describe('per account', () => {
    it('pauses the account after 5 failures, says so truthfully even to the right password, and never longer than Retry-After', async () => {
      const { body, user } = await registerUser(t);
      const accountCounters = () =>
        t.deps.database.db
          .select()
          .from(authThrottle)
          .where(or(like(authThrottle.key, `%${user.id}%`), like(authThrottle.key, `%${body.email}%`)));
      for (let i = 0; i < 5; i++) expectErrorEnvelope(await login(body.email, `wrong-${i}`), 401, 'unauthenticated');
      expect(await accountCounters()).toHaveLength(1);
      expectAccountPaused(await login(body.email, 'wrong-again'));
      const seconds = expectAccountPaused(await login(body.email, body.password));
      // The same account by another identifier is the same account.
      expectAccountPaused(await login(body.phone, body.password));

      t.clock.advance(seconds * 1000 + 1);
      expect((await login(body.email, body.password)).status).toBe(200);

      // The success reset the counter: failures are free again, and no counter row remains for the account.
      expect(await accountCounters()).toEqual([]);
      for (let i = 0; i < 4; i++) expectErrorEnvelope(await login(body.email, `wrong-${i}`), 401, 'unauthenticated');
      expect((await login(body.email, body.password)).status).toBe(200);
    });

    it('lets at most 5 of 20 concurrent wrong guesses reach the password check', async () => {
      const { body } = await registerUser(t);
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => login(body.email, `guess-${i}`)));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      for (const res of results.filter((r) => r.status === 429)) expectAccountPaused(res);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    });

    it('signs in 20 concurrent right passwords to one account, none told to wait', async () => {
      const { body } = await registerUser(t);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.request('POST', '/api/auth/login', {
            body: { identifier: body.email, password: body.password, currentDeviceId: `parallel-${i}` },
            ip: freshIp(),
          }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
    });

    it('signs in concurrent right passwords after a few typos, while the account still has free failures', async () => {
      const { body } = await registerUser(t);
      for (let i = 0; i < 4; i++) expectErrorEnvelope(await login(body.email, `typo-${i}`), 401, 'unauthenticated');
      const results = await Promise.all(Array.from({ length: 10 }, () => login(body.email, body.password)));
      expect(results.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
    });

    it('counts failures against the account whichever identifier names it', async () => {
      const { body } = await registerUser(t);
      const spellings = [body.email, body.email.toUpperCase(), body.phone, `+256${body.phone.slice(1)}`, body.phone];
      for (const identifier of spellings) {
        expectErrorEnvelope(await login(identifier, 'wrong'), 401, 'unauthenticated');
      }
      expectAccountPaused(await login(body.email, body.password));
      expectAccountPaused(await login(`256${body.phone.slice(1)}`, body.password));
    });

    it('backs off further with every failure after the free ones', async () => {
      const { body } = await registerUser(t);
      for (let i = 0; i < 5; i++) await login(body.email, 'wrong');
      const waits: number[] = [];
      for (let i = 0; i < 4; i++) {
        const seconds = expectAccountPaused(await login(body.email, body.password));
        waits.push(seconds);
        t.clock.advance(seconds * 1000 + 1);
        expectErrorEnvelope(await login(body.email, 'still wrong'), 401, 'unauthenticated');
      }
      waits.push(expectAccountPaused(await login(body.email, body.password)));
      expect(waits).toEqual([1, 2, 4, 8, 16]);
    });

    it('is never permanent: many failures later, ten minutes unblock it', async () => {
      const { body } = await registerUser(t);
      let failures = 0;
      while (failures < 25) {
        const res = await login(body.email, 'wrong');
        if (res.status === 429) t.clock.advance(retryAfter(res) * 1000 + 1);
        else {
          expect(res.status).toBe(401);
          failures += 1;
        }
      }
      // The backoff is capped at five minutes.
      const seconds = expectRetryAfter(
        await login(body.email, body.password),
        /^Sign-in to this account is paused after several wrong passwords\. Try again in 5 minutes\.$/,
      );
      expect(seconds).toBe(300);
      t.clock.advance(10 * 60_000);
      expect((await login(body.email, body.password)).status).toBe(200);
    });
  });

  describe('per client IP: a ceiling, not a lock', () => {
    it('lets everyone behind one carrier NAT address in while an attacker there hammers one account', async () => {
      const nat = freshIp();
      const people = await Promise.all(Array.from({ length: 24 }, () => registerUser(t)));
      const { body: victim } = await registerUser(t);
      const agent = await createAgentAs(t, adminToken);

      // The attacker: 15 wrong guesses at someone else's account, from the shared address.
      const attack: number[] = [];
      for (let i = 0; i < 15; i++) {
        const res = await login(victim.email, `guess-${i}`, nat);
        attack.push(res.status);
        if (res.status === 429) expectAccountPaused(res);
      }
      expect(attack.filter((s) => s === 401)).toHaveLength(5);
      expect(attack.filter((s) => s === 429)).toHaveLength(10);

      // Everyone else behind that address: two typos each, then the right password.
      for (const { body } of people) {
        for (const typo of ['typo-1', 'typo-2']) {
          expectErrorEnvelope(await login(body.email, typo, nat), 401, 'unauthenticated');
        }
      }
      const signIns = await Promise.all(people.map(({ body }) => login(body.phone, body.password, nat)));
      expect(signIns.map((r) => r.status)).toEqual(people.map(() => 200));
      // The admin and an agent behind the same address too.
      expect((await login(ADMIN.email, ADMIN.password, nat)).status).toBe(200);
      adminToken = await loginAdmin(t); // one device at a time: the NAT sign-in replaced the suite's admin session
      expectErrorEnvelope(await agentLogin(agent.body.email, 'agent typo', nat), 401, 'unauthenticated');
      expect((await agentLogin(agent.body.email, agent.password, nat)).status).toBe(200);

      // The attacked account is backing off, from any address, and says why.
      expectAccountPaused(await login(victim.email, victim.password, nat));
      expectAccountPaused(await login(victim.email, victim.password, freshIp()));
    });

    it(
      'counts at most 3 failures per account tried towards the ceiling, then asks that address for a proof of work',
      { timeout: 60_000 },
      async () => {
        const ip = freshIp();
        const now = t.clock.now();
        // 99 accounts tried 10 times each: 990 failures, but 297 towards the ceiling.
        await t.deps.database.db
          .insert(loginIpFailures)
          .values(
            Array.from({ length: 99 }, (_, i) => ({ ip, accountKey: `seeded-${i}`, failures: 10, lastFailureAt: now })),
          );
        const { body } = await registerUser(t);
        const { body: other } = await registerUser(t);
        expect((await login(body.email, body.password, ip)).status).toBe(200);
        // Three more wrong passwords on one more account that exists reach the ceiling of 300.
        for (let i = 0; i < 3; i++) {
          expectErrorEnvelope(await login(other.email, `nope-${i}`, ip), 401, 'unauthenticated');
        }
        expectErrorEnvelope(await login(body.email, body.password, ip), 429, 'proof_required', PROOF_MESSAGE);
        expectErrorEnvelope(await agentLogin('someone@example.com', 'whatever', ip), 429, 'proof_required');
        // …while the same account from another address is not asked.
        expect((await login(body.email, body.password, freshIp())).status).toBe(200);
        // The window passes and the address is free again.
        t.clock.advance(IP_WINDOW_MS);
        expect((await login(body.email, body.password, ip)).status).toBe(200);
      },
    );

    it('forgets an account’s typos from an address once its right password arrives', async () => {
      const ip = freshIp();
      const { body } = await registerUser(t);
      for (let i = 0; i < 3; i++) await login(body.email, `typo-${i}`, ip);
      expect((await login(body.email, body.password, ip)).status).toBe(200);
      const rows = await t.deps.database.db.select().from(loginIpFailures);
      expect(rows.filter((r) => r.ip === ip)).toEqual([]);
    });
  });

  describe('agents', () => {
    it('throttles agent sign-in per account the same way and never permanently', async () => {
      const { body, password } = await createAgentAs(t, adminToken);
      for (let i = 0; i < 5; i++) {
        expectErrorEnvelope(
          await agentLogin(body.email, `wrong-${i}`),
          401,
          'unauthenticated',
          'Invalid agent credentials. Please try again.',
        );
      }
      const seconds = expectAccountPaused(await agentLogin(body.email, password));
      expectAccountPaused(await agentLogin(body.email.toUpperCase(), password));
      t.clock.advance(seconds * 1000 + 1);
      expectErrorEnvelope(await agentLogin(body.email, 'wrong'), 401, 'unauthenticated');
      expect(expectAccountPaused(await agentLogin(body.email, password))).toBe(2);

      t.clock.advance(10 * 60_000);
      expect((await agentLogin(body.email, password)).status).toBe(200);
    });

    it('signs in 10 concurrent right agent passwords', async () => {
      const { body, password } = await createAgentAs(t, adminToken);
      const results = await Promise.all(Array.from({ length: 10 }, () => agentLogin(body.email, password)));
      expect(results.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
    });

    it('keeps user and agent counters apart', async () => {
      const { body, password } = await createAgentAs(t, adminToken);
      for (let i = 0; i < 6; i++) await login(body.email, 'wrong');
      expect((await agentLogin(body.email, password)).status).toBe(200);
    });
  });

  describe('change password', () => {
    it('throttles wrong current passwords without ending the session', async () => {
      const { token, body } = await registerUser(t);
      const change = (currentPassword: string) =>
        t.request('POST', '/api/users/change-password', {
          token,
          body: { currentPassword, newPassword: 'a different password' },
        });
      for (let i = 0; i < 5; i++) expectErrorEnvelope(await change('wrong'), 400, 'bad_request');
      expectAccountPaused(await change(body.password));
      expect((await t.request('GET', '/api/auth/profile', { token })).status).toBe(200);
    });
  });
});
