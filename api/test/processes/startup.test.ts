import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appSecrets, users } from '../../src/db/schema.ts';
import { migrationsDir } from '../../src/lib/paths.ts';
import { type Cluster, createCluster, loginAdmin, processTests, Replica, withinMs } from './server-process.ts';

/** Replicas starting together on an empty database (decision 0079), and the server's limits on slow clients. */
describe.skipIf(!processTests)('server processes starting together', { timeout: 120_000 }, () => {
  let cluster: Cluster;
  let replicas: Replica[];
  beforeAll(async () => {
    cluster = await createCluster();
    // No JWT_SECRET and no STORAGE_SIGNING_SECRET: every replica must find or generate the same keys.
    replicas = await Promise.all(
      [0, 1, 2, 3].map((i) => Replica.start(cluster, i === 0 ? { HTTP_HEADERS_TIMEOUT_MS: '500' } : {})),
    );
  }, 120_000);
  afterAll(() => cluster?.close());

  it('all become ready with one schema, one admin and one signing key', async () => {
    const applied = (await cluster.database.db.execute(
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: { n: number }[] };
    const migrations = readdirSync(migrationsDir).filter((f) => f.endsWith('.sql'));
    expect(applied.rows).toEqual([{ n: migrations.length }]);
    const admins = await cluster.database.db
      .select()
      .from(users)
      .where(sql`${users.isProtected}`);
    expect(admins.map((a) => a.email)).toEqual([expect.stringContaining('admin@')]);
    const secrets = await cluster.database.db.select().from(appSecrets);
    // One of each, whatever the number of replicas: the content master key and the licence signing key too (0229, 0230).
    expect(secrets.map((s) => s.name).sort()).toEqual([
      'content_master_key',
      'file_signing_key',
      'jwt_signing_key',
      'licence_signing_key',
      'vapid_keys',
    ]);

    // A token minted by each replica is accepted by every replica.
    for (const minter of replicas) {
      const token = await loginAdmin(minter);
      for (const replica of replicas) {
        const profile = await replica.request('GET', '/api/auth/profile', { token });
        // Each login replaces the admin's session (one device), so only the newest token is checked.
        expect(profile.status, profile.text).toBe(200);
      }
    }
  });

  it('closes a connection that trickles its headers after HTTP_HEADERS_TIMEOUT_MS', async () => {
    const socket = connect(replicas[0]!.port, '127.0.0.1');
    const startedAt = Date.now();
    const header = 'GET /api/health/live HTTP/1.1\r\nHost: x\r\nX-Slow: ';
    let sent = 0;
    const trickle = setInterval(() => {
      if (sent < header.length) socket.write(header[sent++]!);
      else socket.write('a');
    }, 50);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    await withinMs(
      new Promise<void>((resolve) => socket.on('close', () => resolve())),
      10_000,
      () => 'the trickling connection was never closed',
    );
    clearInterval(trickle);
    const elapsed = Date.now() - startedAt;
    expect(elapsed).toBeGreaterThanOrEqual(400);
    expect(elapsed).toBeLessThan(5000);
    // Node answers 408 before closing; never a 200 for a request that never finished its headers.
    expect(answer).not.toContain('200 OK');
    // A prompt client on the same server is not affected.
    expect((await replicas[0]!.request('GET', '/api/health/live')).status).toBe(200);
  });
});

/**
 * A first deploy, or one that upgrades pg-boss's schema, starts several replicas at the same instant on a database
 * with no schema yet, pg-boss's included (FFMPEG_PATH=ffmpeg: every replica starts its job queue). Both must come up.
 */
describe.skipIf(!processTests)(
  'two replicas with the job queue started at the same instant',
  { timeout: 240_000 },
  () => {
    it.each([1, 2, 3])('both become healthy on an empty database (round %i)', async () => {
      const cluster = await createCluster();
      try {
        const env = { FFMPEG_PATH: 'ffmpeg', FFPROBE_PATH: 'ffprobe' };
        // One with a pool of one connection: the queue's schema work runs on the start-up lock's own connection.
        const started = await Promise.allSettled([
          Replica.start(cluster, env),
          Replica.start(cluster, { ...env, DATABASE_POOL_SIZE: '1' }),
        ]);
        const failures = started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
        expect(failures).toEqual([]);
        for (const replica of cluster.replicas) {
          expect((await replica.request('GET', '/api/health/ready')).status).toBe(200);
        }
        const queues = (await cluster.database.db.execute(
          sql`select name from pgboss.queue order by name`,
        )) as unknown as { rows: { name: string }[] };
        expect(queues.rows.map((r) => r.name)).toEqual(['film_encrypt', 'transcode', 'transcode_dead']);
      } finally {
        await cluster.close();
      }
    });
  },
);
