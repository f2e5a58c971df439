import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { tryCode } from '../features/auth/one-time-codes.ts';
import { TokenService } from '../features/auth/tokens.ts';
import { migrationsDir } from '../lib/paths.ts';
import { openDatabase } from './client.ts';

/**
 * Migration 0025 (decision 0227) moves codes from the two old tables into `one_time_codes`: a code someone received
 * just before a deploy still works after it, and only for its own purpose (and number).
 */
const work = mkdtempSync(join(tmpdir(), 'filamu-codes-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The migrations up to and including `last`, as a folder drizzle's migrator reads. */
function migrationsUpTo(last: number): string {
  const folder = join(work, `migrations-${last}`);
  cpSync(migrationsDir, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= last);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

describe('migration 0025: one table for one-time codes', () => {
  it('copies the open codes across, keeps their digests working, and drops the old tables', async () => {
    const tokens = new TokenService('a signing secret for this test only');
    const dataDir = join(work, 'data');
    const now = new Date();
    const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
    const inMinutes = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();
    const userId = '00000000-0000-4000-8000-000000000001';
    const phone = '256772000999';

    const before = await openDatabase({ kind: 'pglite', dataDir, migrationsDir: migrationsUpTo(24) });
    await before.prepare(async (db) => {
      await db.execute(sql`insert into users (id, email, full_name, password_hash, phone)
        values (${userId}, 'codes@example.com', 'Code Holder', 'x', ${phone})`);
      const recovery = tokens.digest('password-reset-code', `${userId}:123456`);
      const number = tokens.digest('phone-change-code', `${userId}:${phone}:654321`);
      await db.execute(sql`insert into password_reset_codes (user_id, channel, code_hash, attempts, expires_at, created_at)
        values (${userId}, 'email', ${recovery}, 2, ${inMinutes(8)}, ${minutesAgo(2)}),
               (${userId}, 'phone', 'ab', 5, ${minutesAgo(170)}, ${minutesAgo(180)})`);
      await db.execute(sql`insert into phone_change_codes (user_id, new_phone, code_hash, expires_at, created_at)
        values (${userId}, ${phone}, ${number}, ${inMinutes(9)}, ${minutesAgo(1)})`);
    });
    await before.close();

    const after = await openDatabase({ kind: 'pglite', dataDir, migrationsDir });
    try {
      await after.prepare(async () => undefined);
      const rows = await after.executeSql('select purpose, destination, attempts from one_time_codes order by purpose');
      // The three-hour-old burnt code is not carried over.
      expect(rows.rows).toEqual([
        { purpose: 'phone', destination: phone, attempts: 0 },
        { purpose: 'recovery', destination: 'email', attempts: 2 },
      ]);
      const old = await after.executeSql(
        "select to_regclass('password_reset_codes') as a, to_regclass('phone_change_codes') as b",
      );
      expect(old.rows).toEqual([{ a: null, b: null }]);

      const deps = { database: after, clock: { now: () => new Date() }, tokens };
      // A code works only for its own purpose, and a number code only for its number.
      expect(await tryCode(deps, { purpose: 'phone', userId }, '123456')).toBeNull();
      expect(await tryCode(deps, { purpose: 'phone', userId, destination: '256772000998' }, '654321')).toBeNull();
      expect(await tryCode(deps, { purpose: 'recovery', userId }, '123456')).toBe('email');
      expect(await tryCode(deps, { purpose: 'phone', userId, destination: phone }, '654321')).toBe(phone);
      // Used once.
      expect(await tryCode(deps, { purpose: 'recovery', userId }, '123456')).toBeNull();
    } finally {
      await after.close();
    }
  });
});
