import { existsSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloads, mailOutbox, movies, payments, users } from '../../src/db/schema.ts';
import { fakeMp4, stockPlan } from '../library.ts';
import {
  addMovie,
  type Cluster,
  createCluster,
  createPlan,
  loginAdmin,
  pollUntil,
  processTests,
  registerUser,
  Replica,
  saveMovie,
  subscribe,
  uploadLink,
} from './server-process.ts';

const PRICE = 20_000;

/** Waits (tightly, without a fixed sleep) until `condition` holds. */
async function soon(condition: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** kill -9 in the middle of work, then a restart on the same database and objects folder. */
describe.skipIf(!processTests)('a server process killed with SIGKILL', { timeout: 60_000 }, () => {
  let cluster: Cluster;
  let server: Replica;
  let adminToken: string;
  let planId: string;
  // The storage cleanup runs every second here, so a restart finds a pass due (decisions 0083, 0084).
  const env = { PAYMENT_RECONCILE_INTERVAL_MS: '200', STORAGE_CLEANUP_INTERVAL_MS: '1000' };
  beforeAll(async () => {
    cluster = await createCluster();
    server = await Replica.start(cluster, env);
    adminToken = await loginAdmin(server);
    planId = await createPlan(server, adminToken, PRICE);
    await stockPlan(cluster.database.db, planId); // a plan without movies is not sold
  }, 120_000);
  afterAll(() => cluster?.close());

  async function crashAndRestart(whileDown?: () => void) {
    expect(await server.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    whileDown?.();
    server = await Replica.start(cluster, env);
  }

  it('during a grant burst leaves at most one download, consistent, and the user carries on', async () => {
    const movie = await addMovie(server, adminToken, planId);
    for (const killAfterAnswers of [0, 1, 5]) {
      const user = await registerUser(server);
      await subscribe(server, adminToken, user.userId, planId);
      let answered = 0;
      const burst = Array.from({ length: 20 }, () =>
        server
          .request('POST', '/api/users/downloads/start', { token: user.token, body: { movieId: movie.movieId } })
          .then((r) => ((answered += 1), r.status))
          .catch(() => 'cut' as const),
      );
      await soon(() => answered >= killAfterAnswers);
      await crashAndRestart();
      const statuses = await Promise.all(burst);
      for (const status of statuses) expect([200, 'cut']).toContain(status);

      const rows = await cluster.database.db
        .select()
        .from(downloads)
        .where(and(eq(downloads.userId, user.userId), eq(downloads.movieId, movie.movieId)));
      expect(rows.length).toBeLessThanOrEqual(1);
      if (statuses.includes(200)) expect(rows).toHaveLength(1);
      for (const row of rows) expect(row).toMatchObject({ status: 'starting', downloadedBytes: 0 });

      // The session survived the crash; the next grant is the same download (or the first one).
      const again = await server.request('POST', '/api/users/movies/generate-download-url', {
        token: user.token,
        body: { movieId: movie.movieId },
      });
      expect(again.status, again.text).toBe(200);
      if (rows[0]) expect(again.json.downloadId).toBe(rows[0].id);
      const after = await cluster.database.db
        .select()
        .from(downloads)
        .where(and(eq(downloads.userId, user.userId), eq(downloads.movieId, movie.movieId)));
      expect(after).toHaveLength(1);
    }
  });

  it('during payment verification activates exactly once after the restart, with no half-written rows', async () => {
    for (let round = 1; round <= 2; round++) {
      const user = await registerUser(server);
      const started = await server.request('POST', '/api/payments/initiate', {
        token: user.token,
        body: { subscription_plan_id: planId, amount: PRICE, currency: 'UGX', description: 'Monthly' },
      });
      expect(started.status, started.text).toBe(201);
      const dpoToken = started.json.dpo_token as string;
      const charged = await server.request('POST', '/api/payments/charge-mobile', {
        token: user.token,
        body: { transaction_id: started.json.transaction_id, phoneNumber: `07729000${round}5`, mno: 'MTNmobilemoney' },
      });
      expect(charged.status, charged.text).toBe(200);

      // The gateway has been paid; verifies fly, and the process dies as soon as DPO is asked.
      const verifies = Array.from({ length: 10 }, () =>
        server.request('GET', `/api/payments/verify/${dpoToken}`, { token: user.token }).catch(() => null),
      );
      await soon(() => (cluster.verifies.get(dpoToken) ?? 0) >= 1);
      await crashAndRestart();
      await Promise.all(verifies);

      const consistent = async () => {
        const [payment] = await cluster.database.db.select().from(payments).where(eq(payments.dpoToken, dpoToken));
        const [account] = await cluster.database.db.select().from(users).where(eq(users.id, user.userId));
        const receipts = await cluster.database.db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.toAddress, user.body.email), eq(mailOutbox.kind, 'receipt')));
        // Either nothing of the activation was written, or all of it.
        if (payment!.status === 'completed') {
          expect(receipts).toHaveLength(1);
          expect(account!.subscriptionPlanId).toBe(planId);
        } else {
          expect(payment!.status).toBe('pending');
          expect(receipts).toHaveLength(0);
          expect(account!.subscriptionPlanId).toBeNull();
        }
        return payment!.status;
      };
      await consistent();

      // The restarted process settles it: the reconciler (made due now) and the user's next verify race.
      await cluster.database.db
        .update(payments)
        .set({ nextCheckAt: sql`now() - interval '1 second'` })
        .where(eq(payments.dpoToken, dpoToken));
      // The app polls: DPO was asked just before the crash, so a poll inside that window answers the stored state
      // (decision 0115) until the reconciler or a later poll settles it.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const next = await server.request('GET', `/api/payments/verify/${dpoToken}`, { token: user.token });
        expect(next.status, next.text).toBe(200);
        if (next.json.status === 'completed') break;
        expect(next.json.status).toBe('pending');
        if (Date.now() > deadline) throw new Error('the payment was never settled after the restart');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(await consistent()).toBe('completed');
    }
  });

  it('during an upload to /files shows no half object under the key, and the upload can be redone', async () => {
    const size = 4 * 1024 * 1024;
    const bytes = fakeMp4(size);
    const link = await uploadLink(server, adminToken, size);
    const objectFile = join(cluster.dataDir, 'objects', link.s3Key);

    const put = httpRequest(`${server.url}${link.path}`, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4', 'content-length': String(size) },
    });
    const outcome = new Promise<string>((resolve) => {
      put.on('response', (res) => resolve(`answered ${res.statusCode}`));
      put.on('error', () => resolve('cut'));
    });
    put.write(bytes.subarray(0, size / 2));
    // Half the body is on its way (handed to the socket) when the process dies.
    await soon(() => (put.socket?.bytesWritten ?? 0) >= size / 2);
    const uploadsDir = join(cluster.dataDir, 'objects', '.uploads');
    const debris = () => (existsSync(uploadsDir) ? readdirSync(uploadsDir) : []);
    // The server has started writing the body to its temp file.
    await pollUntil(
      async () => debris().length > 0,
      10_000,
      () => 'the upload never reached a temp file',
    );
    let leftBehind: string[] = [];
    await crashAndRestart(() => {
      leftBehind = debris();
      // Make the crash's temp file as old as an abandoned one (older than an upload link's life plus the margin).
      const hoursAgo = new Date(Date.now() - 3 * 3_600_000);
      for (const name of leftBehind) utimesSync(join(uploadsDir, name), hoursAgo, hoursAgo);
    });
    expect(await outcome).toBe('cut');
    expect(leftBehind.length, 'the killed upload left its temp file behind').toBeGreaterThan(0);

    expect(existsSync(objectFile)).toBe(false);
    const refused = await saveMovie(server, adminToken, link.s3Key, planId, size);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await cluster.database.db.select().from(movies).where(eq(movies.s3Key, link.s3Key))).toHaveLength(0);
    // The restarted server's cleanup removes the crash's debris on its own.
    await pollUntil(
      async () => !debris().some((name) => leftBehind.includes(name)),
      20_000,
      () => `upload debris still there: ${debris().join(', ')}`,
    );

    const redone = await fetch(`${server.url}${link.path}`, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4' },
      body: bytes,
    });
    expect(redone.status, await redone.text()).toBeLessThan(300);
    const saved = await saveMovie(server, adminToken, link.s3Key, planId, size);
    expect(saved.status, saved.text).toBe(201);
    expect(readFileSync(objectFile).equals(bytes)).toBe(true);
  });
});
