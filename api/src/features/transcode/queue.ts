import { RENDITION_KINDS, type RenditionKind } from '@filamu/shared';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { TranscodeConfig } from '../../config.ts';
import type { Database, ExecuteSql } from '../../db/client.ts';

/**
 * The rendition jobs on pg-boss (decision 0127): one job per rendition in the `transcode` queue. pg-boss claims
 * (SKIP LOCKED), retries with back-off, expires a job whose process died and cancels; the `movie_renditions` row
 * stays what the admin sees and the exactly-once guard for `ready` (jobs.ts).
 */

export const TRANSCODE_QUEUE = 'transcode';
/** Jobs out of attempts land here (pg-boss's dead letter), so a rendition whose last worker died is marked failed. */
export const TRANSCODE_DEAD_QUEUE = 'transcode_dead';
/** One job per movie with a file still stored plain: encrypt it (decision 0235). */
export const ENCRYPT_QUEUE = 'film_encrypt';
const SCHEMA = 'pgboss';
/** Three attempts in all. */
const RETRY_LIMIT = 2;
/** pg-boss refuses expiries of 24 hours or more. */
const MAX_EXPIRY_SECONDS = 23 * 3600;

export interface TranscodeJobData {
  movieId: string;
  kind: RenditionKind;
}

export type TranscodeJob = PgBoss.JobWithMetadata<TranscodeJobData>;

export interface EncryptJobData {
  movieId: string;
}

/** Per job: the longer of the configured floor and 4× the movie (an encode at a quarter of real time still fits). */
function expirySeconds(config: TranscodeConfig, durationSeconds: number | null): number {
  const byDuration = Math.ceil((durationSeconds ?? 0) * 4);
  return Math.min(MAX_EXPIRY_SECONDS, Math.max(config.expiryMinSeconds, byDuration));
}

/** pg-boss fetches the highest priority first: a new upload's renditions (pg-boss's default, 0)… */
const UPLOAD_PRIORITY = 0;
/** …before a rendition added to movies saved before it existed (the start-up backfill, decision 0251). */
export const BACKFILL_PRIORITY = -1;

/** `stately`: at most one queued and one running job per rendition, so a duplicate send collapses into the first. */
const singletonKey = (movieId: string, kind: RenditionKind) => `${movieId}:${kind}`;

export class TranscodeQueue {
  readonly boss: PgBoss;
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed = false;
  /** While start() runs under the start-up lock: SQL on the lock's connection (decision 0205). */
  private startupSql: ExecuteSql | null = null;

  constructor(
    private readonly database: Database,
    private readonly config: TranscodeConfig,
    private readonly logger: Logger,
  ) {
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => this.executeSql(text, values) },
      schema: SCHEMA,
      // No cron in this app: the timekeeper (and its clock-skew polling) stays off.
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: Math.min(120, config.expiryMinSeconds),
    });
    this.boss.on('error', (error) => logger.warn({ err: error }, 'transcode queue: pg-boss error'));
  }

  /** Every call pg-boss makes, tracked so close() can wait for the ones it does not await (complete after a job). */
  private executeSql(text: string, values: unknown[] | undefined): Promise<{ rows: unknown[] }> {
    if (this.closed) return Promise.resolve({ rows: [] });
    const call = (this.startupSql ?? this.database.executeSql)(text, values);
    this.inFlight.add(call);
    void call.finally(() => this.inFlight.delete(call)).catch(() => {});
    return call;
  }

  /**
   * Runs `work` with every pg-boss call on `executeSql` meanwhile: the start-up lock's connection (decision 0205), so
   * start-up work needs no second connection (DATABASE_POOL_SIZE=1 works).
   */
  async onConnection<T>(executeSql: ExecuteSql, work: () => Promise<T>): Promise<T> {
    this.startupSql = executeSql;
    try {
      return await work();
    } finally {
      this.startupSql = null;
    }
  }

  /** Creates pg-boss's schema (its own migrations) and the queues; run under the start-up lock (onConnection). */
  async start(): Promise<void> {
    await this.boss.start();
    await this.boss.createQueue(TRANSCODE_DEAD_QUEUE, { name: TRANSCODE_DEAD_QUEUE });
    await this.boss.createQueue(TRANSCODE_QUEUE, {
      name: TRANSCODE_QUEUE,
      policy: 'stately',
      retryLimit: RETRY_LIMIT,
      retryDelay: this.config.retryDelaySeconds,
      retryBackoff: true,
      deadLetter: TRANSCODE_DEAD_QUEUE,
    });
    await this.boss.createQueue(ENCRYPT_QUEUE, {
      name: ENCRYPT_QUEUE,
      policy: 'stately',
      retryLimit: 5,
      retryDelay: this.config.retryDelaySeconds,
      retryBackoff: true,
    });
  }

  /** Stops pg-boss (workers are offed by the runner first) and waits for its last queries. */
  async close(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: 5000 });
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.closed = true;
  }

  /**
   * One job per rendition. A job handed back (SIGTERM) keeps its expiry, priority and the attempts it had left; a
   * backfilled one waits behind every new upload's (BACKFILL_PRIORITY).
   */
  async send(
    movieId: string,
    kind: RenditionKind,
    durationSeconds: number | null,
    options: { priority?: number; handedBack?: { retryLimit: number; expireInSeconds: number } } = {},
  ): Promise<string | null> {
    const data: TranscodeJobData = { movieId, kind };
    const { handedBack } = options;
    return this.boss.send(TRANSCODE_QUEUE, data, {
      singletonKey: singletonKey(movieId, kind),
      priority: options.priority ?? UPLOAD_PRIORITY,
      retryLimit: handedBack?.retryLimit ?? RETRY_LIMIT,
      retryDelay: this.config.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: handedBack?.expireInSeconds ?? expirySeconds(this.config, durationSeconds),
      deadLetter: TRANSCODE_DEAD_QUEUE,
    });
  }

  /**
   * Encrypts the movie's plain files (its original after a save, files stored before encryption); a movie with a job
   * waiting collapses into it. Runs after the renditions of the save only by chance: each file is its own step.
   */
  async sendEncrypt(movieId: string, expireInSeconds: number): Promise<string | null> {
    const data: EncryptJobData = { movieId };
    return this.boss.send(ENCRYPT_QUEUE, data, {
      singletonKey: movieId,
      retryLimit: 5,
      retryDelay: this.config.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: Math.min(MAX_EXPIRY_SECONDS, Math.max(this.config.expiryMinSeconds, expireInSeconds)),
    });
  }

  /**
   * The unfinished jobs (queued, waiting for a retry, running) of a movie's renditions. pg-boss 10 finds a job only
   * by id, so this reads its job table by our singleton key.
   */
  async liveJobs(movieId: string): Promise<{ id: string; kind: RenditionKind; state: string }[]> {
    const keys = RENDITION_KINDS.map((kind) => singletonKey(movieId, kind));
    const { rows } = await this.database.executeSql(
      `select id, singleton_key, state from ${SCHEMA}.job
        where name = $1 and singleton_key = any($2::text[]) and state < 'completed'`,
      [TRANSCODE_QUEUE, keys],
    );
    return rows.map((row) => ({
      id: String(row.id),
      kind: String(row.singleton_key).split(':')[1] as RenditionKind,
      state: String(row.state),
    }));
  }

  /**
   * Fails the running jobs of renditions whose worker died (jobs.ts `requeueLapsed`), so pg-boss retries them after
   * the back-off, or sends the last attempt's to the dead letter, instead of waiting for their expiry.
   */
  async failRunning(renditions: { movieId: string; kind: RenditionKind }[], reason: string): Promise<number> {
    const keys = renditions.map((r) => singletonKey(r.movieId, r.kind));
    const { rows } = await this.database.executeSql(
      `select id from ${SCHEMA}.job where name = $1 and state = 'active' and singleton_key = any($2::text[])`,
      [TRANSCODE_QUEUE, keys],
    );
    const ids = rows.map((row) => String(row.id));
    for (const id of ids) await this.boss.fail(TRANSCODE_QUEUE, id, { reason });
    return ids.length;
  }

  /**
   * A running encryption's sign of life, written into its own pg-boss job (pg-boss 10 has no heartbeat): the copy of
   * a 2 GB film may take most of the job's hour, so a job is judged by this, not by its expiry (decision 0238).
   */
  async encryptAlive(jobId: string): Promise<void> {
    await this.database.executeSql(
      `update ${SCHEMA}.job set output = jsonb_build_object('aliveAt', now())
        where name = $1 and id = $2::uuid and state = 'active'`,
      [ENCRYPT_QUEUE, jobId],
    );
  }

  /**
   * Encryptions whose process stopped writing its sign of life for `lapsedSeconds` (it died): failed, so pg-boss runs
   * them again after the back-off instead of at their expiry an hour on; until then the movie's original would be
   * linked plain. Returns how many.
   */
  async failLapsedEncrypts(lapsedSeconds: number, reason: string): Promise<number> {
    const { rows } = await this.database.executeSql(
      `select id from ${SCHEMA}.job where name = $1 and state = 'active'
        and coalesce((output->>'aliveAt')::timestamptz, started_on) < now() - make_interval(secs => $2::int)`,
      [ENCRYPT_QUEUE, lapsedSeconds],
    );
    const ids = rows.map((row) => String(row.id));
    for (const id of ids) await this.boss.fail(ENCRYPT_QUEUE, id, { reason });
    return ids.length;
  }

  /** A deleted movie: its unfinished jobs are cancelled (a running one's worker finds its row cancelled too). */
  async cancelMovie(movieId: string): Promise<number> {
    const ids = (await this.liveJobs(movieId)).map((job) => job.id);
    if (ids.length > 0) await this.boss.cancel(TRANSCODE_QUEUE, ids);
    return ids.length;
  }

  /**
   * Renditions waiting with no job behind them: the process that saved them died before sending, or they date from
   * before the queue. Sent again at start (a rendition that has a job collapses into it).
   */
  async sendMissing(): Promise<number> {
    const { rows } = await this.database.executeSql(
      `select r.movie_id, r.kind, m.duration_seconds from movie_renditions r
         join movies m on m.id = r.movie_id and m.deleted_at is null
        where r.state in ('queued', 'encoding')
          and not exists (select 1 from ${SCHEMA}.job j
                           where j.name = $1 and j.state < 'completed'
                             and j.singleton_key = r.movie_id::text || ':' || r.kind)`,
      [TRANSCODE_QUEUE],
    );
    for (const row of rows) {
      await this.send(
        String(row.movie_id),
        row.kind as RenditionKind,
        row.duration_seconds == null ? null : Number(row.duration_seconds),
      );
    }
    if (rows.length > 0) this.logger.info({ renditions: rows.length }, 'transcode: sent jobs for waiting renditions');
    return rows.length;
  }
}
