import { readdirSync, readFileSync } from 'node:fs';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';

/**
 * docs/data-model.md describes every table once, under a `## name` heading (optionally `## ✅ name`). Tables are
 * added often and in parallel, so this keeps the page from drifting: a table in the schema without a section, or a
 * section naming no table, fails here with the table's name.
 */
const DOC_URL = new URL('../../../docs/data-model.md', import.meta.url);
const SCHEMA_FILE = /^schema.*\.ts$/;

async function schemaTables(): Promise<string[]> {
  const folder = new URL('./', import.meta.url);
  const names = new Set<string>();
  for (const file of readdirSync(folder).filter((name) => SCHEMA_FILE.test(name) && !name.endsWith('.test.ts'))) {
    const module = (await import(new URL(file, folder).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      if (is(value, PgTable)) names.add(getTableConfig(value).name);
    }
  }
  return [...names].sort();
}

function documentedTables(markdown: string): string[] {
  const names = new Set<string>();
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('## ')) continue;
    const name = line.slice(3).replace('✅', '').replaceAll('`', '').trim();
    if (/^[a-z][a-z0-9_]*$/.test(name)) names.add(name);
  }
  return [...names].sort();
}

describe('docs/data-model.md against the drizzle schema', () => {
  it('has a section for every table, and no section for a table that does not exist', async () => {
    const tables = await schemaTables();
    const documented = documentedTables(readFileSync(DOC_URL, 'utf8'));
    expect(tables.length).toBeGreaterThan(20);

    const undocumented = tables.filter((table) => !documented.includes(table));
    const unknown = documented.filter((table) => !tables.includes(table));
    expect(
      undocumented,
      `tables missing from docs/data-model.md (add a "## ✅ <table>" section): ${undocumented.join(', ')}`,
    ).toEqual([]);
    expect(
      unknown,
      `sections of docs/data-model.md naming no table in api/src/db/schema*.ts: ${unknown.join(', ')}`,
    ).toEqual([]);
  });
});
