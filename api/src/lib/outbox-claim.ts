import { eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.ts';

/** The columns every outbox has: a row waits `queued` until `next_attempt_at`, then is claimed as `sending`. */
export type OutboxTable = PgTable & {
  id: PgColumn;
  status: PgColumn;
  nextAttemptAt: PgColumn;
  attempts: PgColumn;
  updatedAt: PgColumn;
};

/**
 * Takes one due row for this worker: `sending`, attempt counted, committed before anything is called, under
 * FOR UPDATE SKIP LOCKED so two replicas never take the same row (the SMS and push outboxes, decisions 0146, 0153).
 */
export async function claimDueRow<T extends OutboxTable>(
  db: Database['db'],
  table: T,
  now: Date,
): Promise<T['$inferSelect'] | undefined> {
  return db.transaction(async (tx) => {
    const [due] = await tx
      .select({ id: table.id })
      .from(table as PgTable)
      .where(sql`${table.status} = 'queued' and ${table.nextAttemptAt} <= ${now.toISOString()}::timestamptz`)
      .orderBy(table.nextAttemptAt)
      .limit(1)
      .for('update', { skipLocked: true });
    if (!due) return undefined;
    const [claimed] = await tx
      .update(table as PgTable)
      .set({ status: 'sending', attempts: sql`${table.attempts} + 1`, updatedAt: now } as never)
      .where(eq(table.id, due.id))
      .returning();
    return claimed as T['$inferSelect'] | undefined;
  });
}
