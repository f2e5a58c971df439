import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloads, mailOutbox, payments, users } from '../../src/db/schema.ts';
import {
  addMovie,
  type Cluster,
  createCluster,
  createPlan,
  loginAdmin,
  pathOf,
  pollUntil,
  processTests,
  registerUser,
  Replica,
  subscribe,
} from './server-process.ts';
import { stockPlan } from '../library.ts';

const PRICE = 20_000;

/**
 * Two server processes on one Postgres database, one objects folder and one DPO gateway: every rule the
 * single-process tests prove must hold when the requests are split between replicas.
 */
describe.skipIf(!processTests)('two server processes on one database', { timeout: 60_000 }, () => {
  let cluster: Cluster;
  let a: Replica;
  let b: Replica;
  let adminToken: string;
  let planId: string;
  beforeAll(async () => {
    cluster = await createCluster();
    // Reconcilers on both, fast: the claiming test needs them; the other tests' payments are never due.
    const env = { PAYMENT_RECONCILE_INTERVAL_MS: '200' };
    [a, b] = await Promise.all([Replica.start(cluster, env), Replica.start(cluster, env)]);
    adminToken = await loginAdmin(a);
    planId = await createPlan(a, adminToken, PRICE);
    await stockPlan(cluster.database.db, planId); // a plan without movies is not sold
  }, 120_000);
  afterAll(() => cluster?.close());

  const db = () => cluster.database.db;
  const receiptsOf = (email: string) =>
    db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'receipt')));

  it('keeps one device per account: a login on B ends the session made on A, on both', async () => {
    const { body } = await registerUser(a);
    const login = (replica: Replica, device: string) =>
      replica.request('POST', '/api/auth/login', {
        body: { identifier: body.email, password: body.password, currentDeviceId: device },
      });
    const first = await login(a, 'phone-1');
    expect(first.status).toBe(200);
    expect((await b.request('GET', '/api/auth/profile', { token: first.json.token })).status).toBe(200);
    const second = await login(b, 'phone-2');
    expect(second.status).toBe(200);
    for (const replica of [a, b]) {
      expect((await replica.request('GET', '/api/auth/profile', { token: first.json.token })).status).toBe(401);
      expect((await replica.request('GET', '/api/auth/profile', { token: second.json.token })).status).toBe(200);
    }
  });

  let phones = 0;
  /** A registered user whose payment DPO has been paid (charged; the sandbox pays numbers ending in 5 at once). */
  async function paidPayment() {
    phones += 1;
    const user = await registerUser(a);
    const started = await a.request('POST', '/api/payments/initiate', {
      token: user.token,
      body: { subscription_plan_id: planId, amount: PRICE, currency: 'UGX', description: 'Monthly' },
    });
    expect(started.status, started.text).toBe(201);
    const charged = await a.request('POST', '/api/payments/charge-mobile', {
      token: user.token,
      body: {
        transaction_id: started.json.transaction_id,
        phoneNumber: `0772${String(phones).padStart(5, '0')}5`,
        mno: 'MTNmobilemoney',
      },
    });
    expect(charged.status, charged.text).toBe(200);
    return { ...user, paymentId: started.json.transaction_id as string, dpoToken: started.json.dpo_token as string };
  }

  async function expectActivatedOnce(userId: string, email: string) {
    const completed = await db()
      .select()
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.status, 'completed')));
    expect(completed).toHaveLength(1);
    // The receipt is queued in the activation's transaction: one receipt is one activation.
    expect(await receiptsOf(email)).toHaveLength(1);
    const [user] = await db().select().from(users).where(eq(users.id, userId));
    expect(user!.subscriptionPlanId).toBe(planId);
  }

  it('activates a paid payment exactly once when A and B verify it concurrently', async () => {
    for (let round = 0; round < 3; round++) {
      const { token, userId, body, dpoToken } = await paidPayment();
      const verifies = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          (i % 2 ? a : b).request('GET', `/api/payments/verify/${dpoToken}`, { token }),
        ),
      );
      // One replica asks DPO; a read on the other in the same moment answers the stored state (decision 0115).
      for (const res of verifies) {
        expect(res.status, res.text).toBe(200);
        expect(['completed', 'pending']).toContain(res.json.status);
      }
      expect(verifies.some((res) => res.json.status === 'completed')).toBe(true);
      for (const replica of [a, b]) {
        const after = await replica.request('GET', `/api/payments/verify/${dpoToken}`, { token });
        expect(after.json.status).toBe('completed');
      }
      await expectActivatedOnce(userId, body.email);
    }
  });

  it('makes one download of 20 concurrent grants split between A and B, and B serves the link A minted', async () => {
    const movie = await addMovie(a, adminToken, planId);
    for (let round = 0; round < 3; round++) {
      const user = await registerUser(a);
      await subscribe(a, adminToken, user.userId, planId);
      const grants = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).request(
            'POST',
            i % 4 < 2 ? '/api/users/movies/generate-download-url' : '/api/users/downloads/start',
            { token: user.token, body: { movieId: movie.movieId } },
          ),
        ),
      );
      // As in the single-process race test (grant-races.test.ts): every grant is the same grant.
      expect(grants.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(new Set(grants.map((r) => r.json.downloadId)).size).toBe(1);
      const rows = await db()
        .select()
        .from(downloads)
        .where(and(eq(downloads.userId, user.userId), eq(downloads.movieId, movie.movieId)));
      expect(rows).toHaveLength(1);

      const minted = grants.find((r, i) => i % 2 === 1 && r.json.downloadUrl)!;
      const served = await fetch(`${b.url}${pathOf(minted.json.downloadUrl)}`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(movie.bytes)).toBe(true);
    }
  });

  it("shares the pending payments between both replicas' reconcilers, each checked with DPO once", async () => {
    const paid = await Promise.all(Array.from({ length: 8 }, () => paidPayment()));
    // Nobody verifies: make them due now, as they would be FIRST_CHECK_MS later.
    await db()
      .update(payments)
      .set({ nextCheckAt: sql`now() - interval '1 second'` })
      .where(
        inArray(
          payments.id,
          paid.map((p) => p.paymentId),
        ),
      );
    await pollUntil(
      async () => {
        const rows = await db()
          .select({ status: payments.status })
          .from(payments)
          .where(
            inArray(
              payments.id,
              paid.map((p) => p.paymentId),
            ),
          );
        return rows.every((r) => r.status === 'completed');
      },
      30_000,
      () => 'the reconcilers did not settle every payment',
    );
    for (const p of paid) {
      expect(cluster.verifies.get(p.dpoToken)).toBe(1);
      await expectActivatedOnce(p.userId, p.body.email);
    }
    // Whichever replica claimed a payment, the other never checked it again: the passes' own counts add up.
    const checked = [a, b]
      .flatMap((r) => r.output)
      .filter((line) => line.includes('"payments reconciled"'))
      .reduce((sum, line) => sum + (JSON.parse(line) as { checked: number }).checked, 0);
    expect(checked).toBe(paid.length);
  });
});
