import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

type Schema = typeof schema;
type Relations = ExtractTablesWithRelations<Schema>;
export type Db = PgDatabase<PgQueryResultHKT, Schema, Relations>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, Relations>;
/** Either the database or a transaction: verbs take this so callers can compose them in one transaction. */
export type Executor = Db | Tx;

/** Raw SQL as a library that brings its own runs it (see `Database.executeSql`). */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Applies pending migrations, then runs `work` (start-up steps such as generated secrets and the protected
   * admin), all under one lock shared by every process on the database, so replicas starting together take turns:
   * the first migrates, the others find nothing to do. `work` gets a handle on the lock's own connection.
   */
  prepare<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /**
   * Runs `work` under the same start-up lock, without migrating: a library's own schema work (pg-boss creating or
   * upgrading its tables and queues) that is not safe when replicas starting together run it at once. `work` gets
   * raw SQL on the lock's own connection, so it needs no second one (DATABASE_POOL_SIZE=1 works).
   */
  exclusively<T>(work: (executeSql: ExecuteSql) => Promise<T>): Promise<T>;
  /** Postgres only (PGlite has one connection): the pool's clients right now, read when metrics are scraped. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /**
   * Raw SQL for a library that brings its own (the pg-boss job queue): with values, one parameterised statement;
   * without, possibly several statements in one text (PGlite runs those through `exec`). Rows of the last one.
   */
  executeSql: ExecuteSql;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number; migrationsDir: string }
  | {
      kind: 'pglite';
      dataDir: string | null;
      migrationsDir: string;
      /** Starts an in-memory database from a dump (`dumpDataDir`) instead of empty: tests clone a migrated template. */
      loadDataDir?: Blob;
    };

/** PGlite (embedded, one connection) by default; node-postgres with a pool when DATABASE_URL is set. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle client dropped by the server (restart, failover) must not crash the process: the pool
    // discards it and the next query opens a new connection.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      prepare: (work) =>
        underStartupLock(pool, async (client) => {
          const db = drizzlePg(client, { schema }) as unknown as Db;
          await migratePg(db as never, { migrationsFolder: options.migrationsDir });
          return work(db);
        }),
      exclusively: (work) => underStartupLock(pool, (client) => work(sqlOn(client))),
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: options.poolSize ?? 10,
      }),
      executeSql: sqlOn(pool),
      ping: async () => void (await db.execute(sql`select 1`)),
      close: () => pool.end(),
    };
  }
  // pg_trgm backs the library's substring search (migration 0002 creates the extension).
  const extensions = { pg_trgm };
  let client: PGlite;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    client = new PGlite(join(options.dataDir), { extensions });
  } else {
    client = new PGlite({ extensions, loadDataDir: options.loadDataDir });
  }
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const executeSql: ExecuteSql = async (text, values) => {
    if (values && values.length > 0) return { rows: (await client.query<Record<string, unknown>>(text, values)).rows };
    const results = await client.exec(text);
    return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
  };
  // One process owns a PGlite folder; only two apps of one process (tests of replicas) take turns, in the process.
  const underStartupTurn = oneAtATime();
  return {
    db,
    kind: 'pglite',
    prepare: (work) =>
      underStartupTurn(async () => {
        await migratePglite(db as never, { migrationsFolder: options.migrationsDir });
        return work(db);
      }),
    exclusively: (work) => underStartupTurn(() => work(executeSql)),
    executeSql,
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
  };
}

/** Raw SQL on the pool or on one of its connections; a text of several statements answers the last one's rows. */
function sqlOn(queryable: pg.Pool | pg.PoolClient): ExecuteSql {
  return async (text, values) => {
    const result = (await queryable.query(text, values)) as pg.QueryResult | pg.QueryResult[];
    return { rows: Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows };
  };
}

/** The key of the start-up advisory lock ('FILAMU' in ASCII); any fixed bigint no other code uses would do. */
const STARTUP_LOCK_KEY = 0x46494c414d55n;

/** Runs the works given to it one after another, in the order they came (the start-up lock within one process). */
function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = last.then(work, work);
    last = run.catch(() => {});
    return run;
  };
}

/**
 * Session-level advisory lock on one dedicated connection: every replica waits here, so only one runs the
 * migrator (or pg-boss's schema work) at a time. The lock goes with the session, so a process killed while holding
 * it releases it too.
 */
async function underStartupLock<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY.toString()]);
    try {
      return await work(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_KEY.toString()]);
    }
  } catch (error) {
    // A connection in an unknown state (a failed unlock, a broken transaction) must not go back to the pool.
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(broken);
  }
}

/** Postgres' unique_violation, whichever driver raised it (drizzle wraps driver errors in `cause`). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const candidate = e as { code?: string; constraint?: string };
    if (candidate.code === '23505') return constraint === undefined || candidate.constraint === constraint;
  }
  return false;
}
