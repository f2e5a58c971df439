import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { freshDatabase, testDatabases } from '../../test/harness.ts';
import { isConcurrencyAbort, retryingAbort, transactionRetrying } from './retry.ts';
import { rateLimitCounters } from './schema.ts';

describe('running again what Postgres aborted for a concurrent transaction', () => {
  it('runs work once more after a deadlock or serialization failure, and only once', async () => {
    for (const code of ['40P01', '40001']) {
      let runs = 0;
      const answer = await retryingAbort(async () => {
        runs += 1;
        if (runs === 1) throw new Error('aborted', { cause: Object.assign(new Error(code), { code }) });
        return 'done';
      });
      expect([answer, runs]).toEqual(['done', 2]);
    }
    let runs = 0;
    const aborted = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    await expect(retryingAbort(() => Promise.reject(aborted).finally(() => (runs += 1)))).rejects.toBe(aborted);
    expect(runs).toBe(2);
  });

  it('does not run again what failed for any other reason', async () => {
    let runs = 0;
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    await expect(retryingAbort(() => Promise.reject(unique).finally(() => (runs += 1)))).rejects.toBe(unique);
    expect(runs).toBe(1);
    expect(isConcurrencyAbort(new Error('plain'))).toBe(false);
  });

  it.skipIf(!testDatabases.includes('postgres'))(
    'lets both of two deadlocked transactions through on postgres',
    async () => {
      const database = await freshDatabase('postgres');
      try {
        await database.prepare(async () => {});
        const { db } = database;
        const expiresAt = new Date(Date.now() + 3600_000);
        await db.insert(rateLimitCounters).values([
          { key: 'a', hits: 0, expiresAt },
          { key: 'b', hits: 0, expiresAt },
        ]);
        // Each transaction locks one row, waits until the other has locked its own, then asks for the other's.
        let locked = 0;
        let bothLocked!: () => void;
        const barrier = new Promise<void>((resolve) => (bothLocked = resolve));
        let runs = 0;
        const bump = (first: string, second: string) =>
          transactionRetrying(db, async (tx) => {
            runs += 1;
            const raise = (key: string) =>
              tx
                .update(rateLimitCounters)
                .set({ hits: sql`${rateLimitCounters.hits} + 1` })
                .where(eq(rateLimitCounters.key, key));
            await raise(first);
            if (++locked === 2) bothLocked();
            await barrier;
            await raise(second);
          });
        await Promise.all([bump('a', 'b'), bump('b', 'a')]);
        expect(runs).toBe(3);
        const rows = await db.select().from(rateLimitCounters).orderBy(rateLimitCounters.key);
        expect(rows.map((r) => r.hits)).toEqual([2, 2]);
      } finally {
        await database.close();
      }
    },
  );
});
