import { contracts, InitiatePaymentResponse } from '@filamu/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { payments, rateLimitCounters } from '../../db/schema.ts';
import { normaliseUgandaPhone } from '../payments/dpo/formatting.ts';
import {
  type TestApp,
  type TestResponse,
  createTestApp,
  expectErrorEnvelope,
  freshIp,
  loginAdmin,
  newUser,
  registerUser,
  testConfig,
  testDatabases,
} from '../../../test/harness.ts';
import { addMovie, createPlan, fetchLink, stockPlan, subscribe } from '../../../test/library.ts';
import { hitLimits, type Limit } from './limiter.ts';
import { downloadLinks, mobileCharge, paymentInitiation } from './limits.ts';

const { payments: pay } = contracts;
const MINUTE = 60_000;

/** 429 `rate_limited`, a whole-second Retry-After no longer than `maxSeconds`, and a message that says when. */
function expectRateLimited(res: TestResponse, message: RegExp, maxSeconds: number) {
  expectErrorEnvelope(res, 429, 'rate_limited', message);
  const seconds = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(maxSeconds);
  expect(res.json.error.message).toMatch(/Please try again in \d+ (second|seconds|minutes|hours)\.$/);
  return seconds;
}

describe.each(testDatabases)('rate limits on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let planId: string;
  beforeAll(async () => {
    // A small registration limit keeps the test quick; its default (200 an hour) is the config's.
    t = await createTestApp(kind, { env: { REGISTRATIONS_PER_IP_PER_HOUR: '5' }, dpo: {} });
    adminToken = await loginAdmin(t);
    planId = await createPlan(t, adminToken);
    await stockPlan(t.deps.database.db, planId);
  });
  afterAll(async () => {
    await t.dpoSandbox?.settle();
    await t.close();
  });

  describe('the limiter', () => {
    const limit: Limit = { name: `test-${kind}`, max: 5, windowSeconds: 60, refusal: 'Slow down' };

    it('lets exactly max of 20 concurrent hits through, and opens a new window once the old one lapses', async () => {
      const db = t.deps.database.db;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, () => hitLimits(db, t.clock.now(), [{ limit, subject: 'concurrent' }])),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
      t.clock.advance(60_000);
      await expect(hitLimits(db, t.clock.now(), [{ limit, subject: 'concurrent' }])).resolves.toBeUndefined();
    });

    it('deletes lapsed counters as it goes', async () => {
      const db = t.deps.database.db;
      await hitLimits(db, t.clock.now(), [{ limit, subject: 'lapsing' }]);
      t.clock.advance(11 * MINUTE);
      await hitLimits(db, t.clock.now(), [{ limit, subject: 'another' }]);
      const keys = (await db.select().from(rateLimitCounters)).map((r) => r.key);
      expect(keys).not.toContain(`${limit.name}:lapsing`);
      expect(keys).toContain(`${limit.name}:another`);
    });
  });

  describe('registration', () => {
    it('limits new accounts per address, not for other addresses, and only for the hour', async () => {
      const ip = freshIp();
      const register = (at: string) => t.request('POST', '/api/auth/register', { body: newUser(), ip: at });
      for (let i = 0; i < 5; i++) expect((await register(ip)).status).toBe(201);
      const seconds = expectRateLimited(
        await register(ip),
        /^Too many new accounts have been created from your network\. /,
        3600,
      );
      expect((await register(freshIp())).status).toBe(201);
      t.clock.advance(seconds * 1000);
      expect((await register(ip)).status).toBe(201);
    });
  });

  describe('payments', () => {
    const initiate = (token: string, ip?: string) =>
      t.call(pay.initiate, { token, ip, body: { subscription_plan_id: planId, currency: 'UGX' } });
    const charge = (token: string, transactionId: string, phoneNumber: string, ip?: string) =>
      t.call(pay.chargeMobile, {
        token,
        ip,
        body: { transaction_id: transactionId, phoneNumber, mno: 'MTNmobilemoney' },
      });
    /** A payer's number whose prompt nobody answers (the sandbox's last digit 2): the payment stays pending. */
    let phoneCounter = 0;
    const unansweredPhone = () => `07720${String(++phoneCounter).padStart(4, '0')}2`;

    it('limits payment initiation per account: 40 in a row get 10 through, then 429 until the hour is over', async () => {
      const { token } = await registerUser(t);
      const statuses: number[] = [];
      let refused: TestResponse | undefined;
      for (let i = 0; i < 40; i++) {
        const res = await initiate(token);
        statuses.push(res.status);
        refused ??= res.status === 429 ? res : undefined;
      }
      expect(statuses.filter((s) => s === 201)).toHaveLength(paymentInitiation.perAccount.max);
      expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
      const seconds = expectRateLimited(refused!, /^Too many payments started\. /, 3600);
      // Someone else from the same address is not affected.
      expect((await initiate((await registerUser(t)).token)).status).toBe(201);
      t.clock.advance(seconds * 1000);
      expect((await initiate(token)).status).toBe(201);
    });

    it('limits mobile charges of one payment: 30 in a row push at most 3 prompts a minute and 5 in all', async () => {
      const { token } = await registerUser(t);
      const started = InitiatePaymentResponse.parse((await initiate(token)).json);
      const phone = unansweredPhone();
      const burst = [];
      for (let i = 0; i < 30; i++) burst.push(await charge(token, started.transaction_id, phone));
      expect(burst.filter((r) => r.status === 200)).toHaveLength(mobileCharge.perPaymentMinute.max);
      const wait = expectRateLimited(burst[3]!, /^Too many payment prompts sent\. /, 60);
      expect(burst.slice(3).every((r) => r.status === 429)).toBe(true);

      // The 27 refused ones did not spend the payer's allowance (10 an hour) nor the phone's: a minute later, 2 more.
      t.clock.advance(wait * 1000);
      expect((await charge(token, started.transaction_id, phone)).status).toBe(200);
      expect((await charge(token, started.transaction_id, phone)).status).toBe(200);
      expectRateLimited(
        await charge(token, started.transaction_id, phone),
        /^Too many payment prompts sent for this payment\. /,
        24 * 3600,
      );
      t.clock.advance(MINUTE);
      expectRateLimited(
        await charge(token, started.transaction_id, phone),
        /^Too many payment prompts sent for this payment\. /,
        24 * 3600,
      );
    });

    it('limits prompts to one phone whoever asks for them', async () => {
      const victim = unansweredPhone();
      const results: TestResponse[] = [];
      for (let i = 0; i < mobileCharge.perPhone.max + 1; i++) {
        const { token } = await registerUser(t);
        const started = InitiatePaymentResponse.parse((await initiate(token)).json);
        results.push(await charge(token, started.transaction_id, victim));
      }
      expect(results.slice(0, -1).every((r) => r.status === 200)).toBe(true);
      expectRateLimited(results.at(-1)!, /^Too many payment prompts sent to this phone\. /, 3600);
    });

    it("strangers cannot use up a number's prompts for its owner: the registered number and numbers that paid", async () => {
      const owner = await registerUser(t);
      const approved = unansweredPhone();
      // A number that approved one of the owner's payments before.
      const paid = InitiatePaymentResponse.parse((await initiate(owner.token)).json);
      await t.deps.database.db
        .update(payments)
        .set({ status: 'completed', phone: normaliseUgandaPhone(approved), completedAt: t.clock.now() })
        .where(eq(payments.id, paid.transaction_id));
      for (const number of [owner.body.phone, approved]) {
        const strangers: TestResponse[] = [];
        for (let i = 0; i < mobileCharge.perPhone.max + 1; i++) {
          const { token } = await registerUser(t);
          const started = InitiatePaymentResponse.parse((await initiate(token)).json);
          strangers.push(await charge(token, started.transaction_id, number));
        }
        expect(strangers.slice(0, -1).every((r) => r.status === 200)).toBe(true);
        expectRateLimited(strangers.at(-1)!, /^Too many payment prompts sent to this phone\. /, 3600);
        const mine = InitiatePaymentResponse.parse((await initiate(owner.token)).json);
        const res = await charge(owner.token, mine.transaction_id, number);
        expect(res.status, res.text).toBe(200);
        // One payment waits for a phone at a time (decision 0181): the owner cancels it before the next number.
        const cancelled = await t.request('POST', `/api/payments/transactions/${mine.transaction_id}/cancel`, {
          token: owner.token,
        });
        expect(cancelled.status, cancelled.text).toBe(200);
      }
    });

    it('never bites a normal payer: start, prompt, prompt again, cancel, start another, prompt', async () => {
      const { token } = await registerUser(t);
      const first = InitiatePaymentResponse.parse((await initiate(token)).json);
      expect((await charge(token, first.transaction_id, unansweredPhone())).status).toBe(200);
      t.clock.advance(30_000);
      expect((await charge(token, first.transaction_id, unansweredPhone())).status).toBe(200);
      // Another purchase waits for the first to be cancelled (decision 0181); the cancel costs no prompt allowance.
      const cancelled = await t.request('POST', `/api/payments/transactions/${first.transaction_id}/cancel`, { token });
      expect(cancelled.status, cancelled.text).toBe(200);
      const second = await initiate(token);
      expect(second.status).toBe(201);
      const phone = unansweredPhone();
      expect((await charge(token, second.json.transaction_id, phone)).status).toBe(200);
      expect((await charge(token, second.json.transaction_id, phone)).status).toBe(200);
    });
  });

  describe('download links', () => {
    it('lets a flaky connection re-mint a link 200 times in an hour, then limits it and lets it resume later', async () => {
      const { token, user } = await registerUser(t);
      await subscribe(t, adminToken, user.id, planId);
      const { movie } = await addMovie(t, adminToken, { category: 'Kinayuganda', planIds: [planId] });
      let minted = 0;
      // Each link receives a new byte before the next is asked for: a download making progress, however little,
      // meets only the hourly limit (one receiving nothing new is stopped sooner, per download: grants.ts).
      const mint = async () => {
        const res = await t.request('POST', '/api/users/movies/generate-download-url', {
          token,
          body: { movieId: movie.id, purpose: 'foreground' },
        });
        if (res.status === 200) await fetchLink(t, res.json.downloadUrl as string, `bytes=${minted}-${minted++}`);
        return res;
      };
      // Far more resumes than a real download needs (links last an hour): every one gets its link.
      for (let i = 0; i < 200; i++) {
        const res = await mint();
        if (res.status !== 200) throw new Error(`mint ${i}: ${res.status} ${res.text}`);
      }
      for (let i = 200; i < downloadLinks.perAccount.max; i++) expect((await mint()).status).toBe(200);
      const seconds = expectRateLimited(await mint(), /^Too many download links requested\. /, 3600);
      t.clock.advance(seconds * 1000);
      expect((await mint()).status).toBe(200);
    });
  });
});

describe('rate limit configuration', () => {
  it('allows 200 registrations per address per hour unless told otherwise', () => {
    expect(testConfig().registrationsPerIpPerHour).toBe(200);
    expect(testConfig({ REGISTRATIONS_PER_IP_PER_HOUR: '10000' }).registrationsPerIpPerHour).toBe(10000);
  });
});
