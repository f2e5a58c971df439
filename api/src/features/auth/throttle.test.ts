import { like, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authThrottle } from '../../db/schema.ts';
import {
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

const retryAfter = (res: TestResponse) => Number(res.headers.get('retry-after'));

function expectThrottled(res: TestResponse) {
  expectErrorEnvelope(res, 429, 'throttled', /^Too many failed attempts\. Try again in \d+ seconds\.$/);
  const seconds = retryAfter(res);
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(res.json.error.message).toContain(`in ${seconds} seconds`);
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
    it('blocks the 6th attempt after 5 failures, even with the right password, until Retry-After passes', async () => {
      const { body, user } = await registerUser(t);
      const accountCounters = () =>
        t.deps.database.db
          .select()
          .from(authThrottle)
          .where(or(like(authThrottle.key, `%${user.id}%`), like(authThrottle.key, `%${body.email}%`)));
      for (let i = 0; i < 5; i++) expectErrorEnvelope(await login(body.email, `wrong-${i}`), 401, 'unauthenticated');
      expect(await accountCounters()).toHaveLength(1);
      expectThrottled(await login(body.email, 'wrong-again'));
      const blocked = await login(body.email, body.password);
      const seconds = expectThrottled(blocked);
      // The same account by another identifier is the same account.
      expectThrottled(await login(body.phone, body.password));

      t.clock.advance(seconds * 1000 + 1);
      const ok = await login(body.email, body.password);
      expect(ok.status).toBe(200);

      // The success reset the counter: failures are free again, and no counter row remains for the account.
      expect(await accountCounters()).toEqual([]);
      for (let i = 0; i < 4; i++) expectErrorEnvelope(await login(body.email, `wrong-${i}`), 401, 'unauthenticated');
      expect((await login(body.email, body.password)).status).toBe(200);
    });

    it('lets at most 5 of 20 concurrent wrong guesses reach the password check', async () => {
      const { body } = await registerUser(t);
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => login(body.email, `guess-${i}`)));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    });

    it('counts failures against the account whichever identifier names it', async () => {
      const { body } = await registerUser(t);
      const spellings = [body.email, body.email.toUpperCase(), body.phone, `+256${body.phone.slice(1)}`, body.phone];
      for (const identifier of spellings) {
        expectErrorEnvelope(await login(identifier, 'wrong'), 401, 'unauthenticated');
      }
      expectThrottled(await login(body.email, body.password));
      expectThrottled(await login(`256${body.phone.slice(1)}`, body.password));
    });

    it('backs off further with every failure after the free ones', async () => {
      const { body } = await registerUser(t);
      for (let i = 0; i < 5; i++) await login(body.email, 'wrong');
      const waits: number[] = [];
      for (let i = 0; i < 4; i++) {
        const seconds = expectThrottled(await login(body.email, body.password));
        waits.push(seconds);
        t.clock.advance(seconds * 1000 + 1);
        expectErrorEnvelope(await login(body.email, 'still wrong'), 401, 'unauthenticated');
      }
      waits.push(expectThrottled(await login(body.email, body.password)));
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
      const seconds = expectThrottled(await login(body.email, body.password));
      expect(seconds).toBe(300);
      t.clock.advance(10 * 60_000);
      expect((await login(body.email, body.password)).status).toBe(200);
    });
  });

  describe('per client IP', () => {
    it('blocks an address after 10 failures across different accounts, for that address only', async () => {
      const { body } = await registerUser(t);
      const ip = freshIp();
      for (let i = 0; i < 10; i++) {
        expectErrorEnvelope(await login(`unknown-${kind}-${i}@example.com`, 'whatever', ip), 401, 'unauthenticated');
      }
      // A different, real account from that address is blocked, even with its right password…
      const blocked = await login(body.email, body.password, ip);
      const seconds = expectThrottled(blocked);
      expect(seconds).toBeGreaterThan(300);
      expect(seconds).toBeLessThanOrEqual(600);
      expectThrottled(await agentLogin('someone@example.com', 'whatever', ip));
      // …while the same account from another address is not.
      expect((await login(body.email, body.password, freshIp())).status).toBe(200);

      t.clock.advance(10 * 60_000 + 1);
      expect((await login(body.email, body.password, ip)).status).toBe(200);
    });

    it('does not block an address for fewer than 10 failures', async () => {
      const { body } = await registerUser(t);
      const ip = freshIp();
      for (let i = 0; i < 9; i++) await login(`nobody-${kind}-${i}@example.com`, 'whatever', ip);
      expect((await login(body.email, body.password, ip)).status).toBe(200);
    });
  });

  describe('agents', () => {
    it('throttles agent sign-in the same way and never permanently', async () => {
      const { body, password } = await createAgentAs(t, adminToken);
      for (let i = 0; i < 5; i++) {
        expectErrorEnvelope(
          await agentLogin(body.email, `wrong-${i}`),
          401,
          'unauthenticated',
          'Invalid agent credentials. Please try again.',
        );
      }
      const seconds = expectThrottled(await agentLogin(body.email, password));
      expectThrottled(await agentLogin(body.email.toUpperCase(), password));
      t.clock.advance(seconds * 1000 + 1);
      expectErrorEnvelope(await agentLogin(body.email, 'wrong'), 401, 'unauthenticated');
      expect(expectThrottled(await agentLogin(body.email, password))).toBe(2);

      t.clock.advance(10 * 60_000);
      expect((await agentLogin(body.email, password)).status).toBe(200);
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
      expectThrottled(await change(body.password));
      expect((await t.request('GET', '/api/auth/profile', { token })).status).toBe(200);
    });
  });
});
