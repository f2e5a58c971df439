import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';

/**
 * Tables a refused request may legitimately change, and why. Everything else must read the same before and after
 * a batch of refused requests.
 */
export const CHANGED_BY_REFUSALS: Record<string, string> = {};

/** Row count and an md5 of every row's text, per table of the public schema. */
export async function snapshotTables(database: Database): Promise<Map<string, string>> {
  const tables = await rows<{ name: string }>(
    database,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const parts = tables
    .filter((t) => !(t.name in CHANGED_BY_REFUSALS))
    .map(
      (t) =>
        `select '${t.name}' as name, count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as sum from "${t.name}" t`,
    );
  const sums = await rows<{ name: string; sum: string }>(database, sql.raw(parts.join(' union all ')));
  return new Map(sums.map((s) => [s.name, s.sum]));
}

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The tables whose rows differ between two snapshots. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((name) => before.get(name) !== after.get(name));
}
