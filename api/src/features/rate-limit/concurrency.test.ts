import { contracts, InitiatePaymentResponse } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitCounters } from '../../db/schema.ts';
import {
  type TestApp,
  type TestResponse,
  createTestApp,
  freshIp,
  loginAdmin,
  newUser,
  registerUser,
  testDatabases,
} from '../../../test/harness.ts';
import { addMovie, createPlan, stockPlan, subscribe } from '../../../test/library.ts';
import { downloadLinks, mobileCharge, paymentInitiation } from './limits.ts';

/**
 * Every flow behind `hitLimits`, hit by a burst of parallel requests that share counters, on Postgres (PGlite has one
 * connection, so nothing there runs in parallel). A double tap on Pay over a flaky link is such a burst: counters
 * taken in different orders made Postgres abort one statement with `deadlock detected` and the payer saw a 500.
 * Each burst binds on one limit only, so exactly that limit's maximum gets through and the rest are told 429.
 */

const { payments: pay } = contracts;
const BURST = 16;

const burst = (n: number, send: (i: number) => Promise<TestResponse>) =>
  Promise.all(Array.from({ length: n }, (_, i) => send(i)));

function expectSplit(responses: TestResponse[], allowed: number, ok: number) {
  const failures = responses.filter((r) => r.status >= 500).map((r) => `${r.status} ${r.text}`);
  expect(failures).toEqual([]);
  expect(responses.filter((r) => r.status === ok)).toHaveLength(allowed);
  expect(responses.filter((r) => r.status === 429)).toHaveLength(responses.length - allowed);
}

describe.skipIf(!testDatabases.includes('postgres'))(
  'parallel requests sharing rate-limit counters on postgres',
  () => {
    let t: TestApp;
    let adminToken: string;
    let planId: string;
    beforeAll(async () => {
      t = await createTestApp('postgres', { env: { REGISTRATIONS_PER_IP_PER_HOUR: '4' }, dpo: {} });
      adminToken = await loginAdmin(t);
      planId = await createPlan(t, adminToken);
      await stockPlan(t.deps.database.db, planId);
    });
    afterAll(async () => {
      await t.dpoSandbox?.settle();
      await t.close();
    });

    /** Puts a counter `left` hits short of its maximum, so a burst reaches the limit without a long warm-up. */
    async function nearlyUsedUp(key: string, max: number, left: number) {
      const expiresAt = new Date(t.clock.now().getTime() + 3600_000);
      await t.deps.database.db
        .insert(rateLimitCounters)
        .values({ key, hits: max - left, expiresAt })
        .onConflictDoUpdate({ target: rateLimitCounters.key, set: { hits: max - left, expiresAt } });
    }

    const initiate = (token: string, ip?: string) =>
      t.call(pay.initiate, { token, ip, body: { subscription_plan_id: planId, currency: 'UGX' } });
    const charge = (token: string, transactionId: string, phoneNumber: string, ip?: string) =>
      t.call(pay.chargeMobile, {
        token,
        ip,
        body: { transaction_id: transactionId, phoneNumber, mno: 'MTNmobilemoney' },
      });

    it('registration: a burst from one address creates exactly the allowed accounts', async () => {
      const ip = freshIp();
      const responses = await burst(12, () => t.request('POST', '/api/auth/register', { body: newUser(), ip }));
      expectSplit(responses, 4, 201);
    });

    it('sign-in: a burst of wrong passwords for one account is refused or throttled, never a 500', async () => {
      const { body } = await registerUser(t);
      const ip = freshIp();
      const responses = await burst(BURST, () =>
        t.request('POST', '/api/auth/login', { body: { identifier: body.email, password: 'wrong password here' }, ip }),
      );
      expect(responses.filter((r) => r.status >= 500).map((r) => r.text)).toEqual([]);
      expect(new Set(responses.map((r) => r.status))).toEqual(new Set([401, 429]));
    });

    it('payment initiation: a burst from one account starts exactly its allowance', async () => {
      const { token } = await registerUser(t);
      const responses = await burst(BURST, () => initiate(token));
      expectSplit(responses, paymentInitiation.perAccount.max, 201);
    });

    it('mobile charge, a double tap many times over: each payment pushes exactly 3 prompts, nobody sees a 500', async () => {
      // Payers behind one carrier address share its counter; each burst re-orders the counter rows on disk.
      const ip = freshIp();
      for (let round = 0; round < 12; round++) {
        const { token } = await registerUser(t);
        const started = InitiatePaymentResponse.parse((await initiate(token, ip)).json);
        const phone = `0772009${String(round).padStart(3, '0')}`;
        const responses = await burst(BURST, () => charge(token, started.transaction_id, phone, ip));
        expectSplit(responses, mobileCharge.perPaymentMinute.max, 200);
      }
    });

    it('mobile charge: taps of one account in parallel stop at the account allowance; its other payments wait', async () => {
      const { token, user } = await registerUser(t);
      const ip = freshIp();
      const started = await burst(2, () => initiate(token, ip));
      const [waiting, other] = started.map((r) => InitiatePaymentResponse.parse(r.json).transaction_id);
      await nearlyUsedUp(`${mobileCharge.perAccount.name}:${user.id}`, mobileCharge.perAccount.max, 2);
      // One payment tapped 8 times with different numbers: its own limit would allow 3 a minute, the account's 2 left
      // bind. One waiting payment per person (decision 0181) means the account's taps all go to that one.
      const responses = await burst(8, (i) => charge(token, waiting!, `07720010${String(i).padStart(2, '0')}`, ip));
      expectSplit(responses, 2, 200);
      // Another payment of the same account pushes no prompt: refused, never a 500.
      const second = await charge(token, other!, '0772001099', ip);
      expect([409, 429]).toContain(second.status);
    });

    it('download links: a burst of one account mints exactly what is left of its allowance', async () => {
      const { token, user } = await registerUser(t);
      await subscribe(t, adminToken, user.id, planId);
      const { movie } = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId] });
      await nearlyUsedUp(`${downloadLinks.perAccount.name}:user:${user.id}`, downloadLinks.perAccount.max, 6);
      const responses = await burst(BURST, () =>
        t.request('POST', '/api/users/movies/generate-download-url', {
          token,
          body: { movieId: movie.id, purpose: 'foreground' },
        }),
      );
      expectSplit(responses, 6, 200);
    });
  },
);
