import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { migrationsDir } from '../src/lib/paths.ts';

/**
 * Migrated template databases (decision 0189): running every migration for every test database was most of an
 * integration test's time. A vitest globalSetup migrates once per run; each fresh database is a copy — PGlite
 * from a dump of its data folder, Postgres by `CREATE DATABASE … TEMPLATE`. The harness finds them through these
 * variables (workers inherit the environment) and, without them (benches, a single file outside vitest), makes
 * its own template on first use.
 */
export const PGLITE_TEMPLATE_FILE = 'FILAMU_TEST_PGLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_NAME = 'FILAMU_TEST_POSTGRES_TEMPLATE';

/** Changes whenever a migration file does, so a template never outlives the schema it was made from. */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  const files = readdirSync(migrationsDir, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    if (!/\.(sql|json)$/.test(file)) continue;
    hash.update(file).update(readFileSync(join(migrationsDir, file)));
  }
  return hash.digest('hex').slice(0, 12);
}

/** An in-memory PGlite with every migration applied, dumped (uncompressed: loading is what repeats). */
export async function migratedPgliteDump(): Promise<Blob> {
  const client = new PGlite({ extensions: { pg_trgm } });
  try {
    await migrate(drizzle(client), { migrationsFolder: migrationsDir });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A migrated database on the server to copy from; every connection to it is closed when this returns. */
export async function createPostgresTemplate(serverUrl: string): Promise<string> {
  // The random part keeps two runs on one server (two checkouts, two CI jobs) from dropping each other's template.
  const name = `filamu_template_${migrationsHash()}_${randomBytes(3).toString('hex')}`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1, migrationsDir });
  try {
    await database.prepare(async () => {});
  } finally {
    await database.close();
  }
  return name;
}

export async function dropPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  await onServer(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/**
 * `CREATE DATABASE … TEMPLATE`. Postgres refuses while any session is connected to the template — including
 * another CREATE copying it at the same instant — so that one answer is retried.
 */
export async function cloneFromTemplate(serverUrl: string, template: string, name: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await onServer(serverUrl, (client) => client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code === '55006';
      if (!busy || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}

/** vitest globalSetup: both templates for the run, removed when it ends. */
export default async function setup(): Promise<() => Promise<void>> {
  // Each project that lists this file calls it; the first one's templates serve the whole run.
  if (process.env[PGLITE_TEMPLATE_FILE]) return async () => {};
  const folder = mkdtempSync(join(tmpdir(), 'filamu-template-'));
  const file = join(folder, `pglite-${migrationsHash()}.tar`);
  writeFileSync(file, new Uint8Array(await (await migratedPgliteDump()).arrayBuffer()));
  process.env[PGLITE_TEMPLATE_FILE] = file;
  const serverUrl = process.env.DATABASE_URL;
  const postgresTemplate = serverUrl ? await createPostgresTemplate(serverUrl) : undefined;
  if (postgresTemplate) process.env[POSTGRES_TEMPLATE_NAME] = postgresTemplate;
  return async () => {
    rmSync(folder, { recursive: true, force: true });
    if (serverUrl && postgresTemplate) await dropPostgresDatabase(serverUrl, postgresTemplate);
  };
}
