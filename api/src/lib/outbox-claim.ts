import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import type { Clock } from './clock.ts';

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

/** Sends an outbox tries before a refusal that waiting might cure fails for good. */
const MAX_ATTEMPTS = 5;

/** How one outbox retries: its name in the log, its back-off, and why an unknown outcome is not sent again. */
export interface OutboxRetries {
  channel: string;
  backoffMs: (attempts: number) => number;
  unknownOutcome: string;
}

/**
 * What a send the gateway did not take becomes (decisions 0146, 0153). An unknown outcome fails and is never resent:
 * the gateway may have taken it, and a second code to the same phone is worse than asking the person to ask again. A
 * refusal that waiting may cure waits its back-off while attempts remain; any other fails. With the log line to write.
 */
export function afterNotAccepted(
  outcome: { kind: string; retryable?: boolean; error: string },
  attempts: number,
  now: Date,
  policy: OutboxRetries,
): { values: { status: 'queued' | 'failed'; nextAttemptAt?: Date; error: string }; message: string } {
  if (outcome.kind === 'unknown') {
    return {
      values: { status: 'failed', error: `${policy.unknownOutcome}: ${outcome.error}`.slice(0, 500) },
      message: `${policy.channel} outcome unknown; not resent`,
    };
  }
  if (outcome.retryable && attempts < MAX_ATTEMPTS) {
    return {
      values: {
        status: 'queued',
        nextAttemptAt: new Date(now.getTime() + policy.backoffMs(attempts)),
        error: outcome.error.slice(0, 500),
      },
      message: `${policy.channel} not accepted; will retry`,
    };
  }
  return { values: { status: 'failed', error: outcome.error.slice(0, 500) }, message: `${policy.channel} refused` };
}

/** A row `sending` this long belongs to a call that never finished (a replica died mid-call). */
export const STALE_SENDING_MS = 5 * 60_000;

/**
 * Rows a stopped replica left `sending` fail, never sent again: the gateway may have taken them. `also` is what the
 * outbox changes on failing a row besides (the SMS outbox removes passwords and masks codes). Logs how many.
 */
export async function failStaleSending(
  deps: { database: Database; clock: Clock; logger: Logger },
  table: OutboxTable,
  retries: OutboxRetries,
  also: Record<string, SQL> = {},
): Promise<void> {
  const cutoff = new Date(deps.clock.now().getTime() - STALE_SENDING_MS);
  const stale = await deps.database.db
    .update(table as PgTable)
    .set({
      status: 'failed',
      error: `${retries.unknownOutcome}: the sending replica stopped`,
      ...also,
      updatedAt: deps.clock.now(),
    } as never)
    .where(sql`${table.status} = 'sending' and ${table.updatedAt} < ${cutoff.toISOString()}::timestamptz`)
    .returning({ id: table.id });
  if (stale.length > 0) {
    deps.logger.warn({ messages: stale.length }, `${retries.channel} left sending by a stopped replica`);
  }
}
