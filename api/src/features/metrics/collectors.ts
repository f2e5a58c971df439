import { sql } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../../db/client.ts';
import type { MetricsParts } from './parts.ts';

type PoolStats = ReturnType<NonNullable<Database['poolStats']>>;

/**
 * `filamu_job_lag_seconds{job}`: how overdue the oldest piece of work of each job is, read from the database on
 * scrape (so it is the same on every replica, and still grows when every replica's timer is stuck or disabled):
 * - reconciler: the oldest pending payment whose next check is due;
 * - stale_sweep: the oldest download silent past the hour after which the sweep should have paused it;
 * - mail (only with SMTP_URL; without it the outbox is the delivery): the oldest queued mail.
 * 0 when nothing is waiting. A failed query drops the series (alert on its absence) rather than report old values.
 */
export function collectJobLag(parts: MetricsParts, registry: Registry): void {
  const { database, clock, config, logger, staleAfterMs } = parts;
  new Gauge({
    name: 'filamu_job_lag_seconds',
    help: 'Age of the oldest overdue work item of each background job (0: nothing waiting).',
    labelNames: ['job'],
    registers: [registry],
    async collect() {
      const now = clock.now().toISOString();
      try {
        const result = await database.db.execute(sql`
          select
            (select extract(epoch from (${now}::timestamptz - min(next_check_at)))::float8
               from payments where status = 'pending' and next_check_at <= ${now}::timestamptz) as reconciler,
            (select extract(epoch from (${now}::timestamptz - min(last_activity_at)))::float8 - ${staleAfterMs / 1000}
               from downloads where status in ('starting', 'downloading')) as stale_sweep,
            (select extract(epoch from (${now}::timestamptz - min(created_at)))::float8
               from mail_outbox where status = 'queued') as mail`);
        const [row] = (result as unknown as { rows: Record<string, number | null>[] }).rows;
        const lag = (value: number | null | undefined) => Math.max(0, value ?? 0);
        this.set({ job: 'reconciler' }, lag(row?.reconciler));
        this.set({ job: 'stale_sweep' }, lag(row?.stale_sweep));
        if (config.smtpUrl) this.set({ job: 'mail' }, lag(row?.mail));
      } catch (error) {
        this.reset();
        logger.warn({ err: error }, 'metrics: job lag query failed');
      }
    },
  });
}

/** The Postgres pool's clients, read on scrape; PGlite has one connection and no pool, so nothing is exported. */
export function collectDbPool(database: Database, registry: Registry): void {
  const stats = database.poolStats?.bind(database);
  if (!stats) return;
  const gauge = (name: string, help: string, read: (s: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(stats()));
      },
    });
  gauge('filamu_db_pool_clients', 'Open Postgres connections in the pool.', (s) => s.total);
  gauge('filamu_db_pool_idle_clients', 'Idle Postgres connections in the pool.', (s) => s.idle);
  gauge('filamu_db_pool_waiting_requests', 'Queries waiting for a free pool connection.', (s) => s.waiting);
  gauge('filamu_db_pool_max_clients', 'The pool size (DATABASE_POOL_SIZE).', (s) => s.max);
}
