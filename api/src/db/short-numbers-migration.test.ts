import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsDir } from '../lib/paths.ts';
import { openDatabase } from './client.ts';

/**
 * Migration 0033 (decision 0249) gives every film a short number a person can type: the films already there numbered
 * from 1000 in the order they were added, and the next film the next number.
 */
const work = mkdtempSync(join(tmpdir(), 'filamu-short-numbers-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function migrationsUpTo(last: number): string {
  const folder = join(work, `migrations-${last}`);
  cpSync(migrationsDir, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= last);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

const insertMovie = (title: string, createdAt: string) =>
  sql`insert into movies (title, category, s3_key, size_bytes, content_type, created_at)
      values (${title}, 'Kinayuganda', ${`movies/${title}.mp4`}, 1, 'video/mp4', ${createdAt})`;

describe('migration 0033: short numbers', () => {
  it('numbers the films there by when they were added, and the next one after them', async () => {
    const dataDir = join(work, 'data');
    const before = await openDatabase({ kind: 'pglite', dataDir, migrationsDir: migrationsUpTo(32) });
    await before.prepare(async (db) => {
      await db.execute(insertMovie('second', '2026-02-01T00:00:00Z'));
      await db.execute(insertMovie('first', '2026-01-01T00:00:00Z'));
      await db.execute(insertMovie('third', '2026-03-01T00:00:00Z'));
    });
    await before.close();

    const after = await openDatabase({ kind: 'pglite', dataDir, migrationsDir });
    try {
      await after.prepare(async (db) => {
        await db.execute(insertMovie('fourth', '2026-04-01T00:00:00Z'));
      });
      const rows = await after.executeSql('select title, short_number from movies order by short_number');
      expect(rows.rows).toEqual([
        { title: 'first', short_number: 1000 },
        { title: 'second', short_number: 1001 },
        { title: 'third', short_number: 1002 },
        { title: 'fourth', short_number: 1003 },
      ]);
    } finally {
      await after.close();
    }
  });

  it('starts an empty library at 1000', async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir: join(work, 'empty'), migrationsDir });
    try {
      await database.prepare(async (db) => {
        await db.execute(insertMovie('only', '2026-01-01T00:00:00Z'));
      });
      expect((await database.executeSql('select short_number from movies')).rows).toEqual([{ short_number: 1000 }]);
    } finally {
      await database.close();
    }
  });
});
