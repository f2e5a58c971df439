import type { PushNotificationKind, PushPayload } from '@filamu/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Executor } from '../../db/client.ts';
import { pushMessages, pushSubscriptions } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { startIntervalJob } from '../../lib/interval-job.ts';
import { afterNotAccepted, claimDueRow, failStaleSending, type OutboxRetries } from '../../lib/outbox-claim.ts';
import { observedPass } from '../metrics/jobs.ts';
import type { Metrics } from '../metrics/registry.ts';
import type { PushGateway } from './gateway.ts';

export interface PushNotice {
  kind: PushNotificationKind;
  title: string;
  body: string;
  /** The app path a tap opens. */
  url: string;
}

type OutboxDeps = { database: Database; clock: Clock; logger: Logger };

/**
 * Queues the notice for every browser the person subscribed, in the caller's transaction (the push exists exactly
 * when the change that caused it does). Returns how many were queued: 0 ⇒ this person cannot be reached by push.
 */
export async function queuePush(exec: Executor, now: Date, userId: string, notice: PushNotice): Promise<number> {
  const subscriptions = await exec
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  if (subscriptions.length === 0) return 0;
  await exec.insert(pushMessages).values(
    subscriptions.map((s) => ({
      userId,
      subscriptionId: s.id,
      ...notice,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })),
  );
  return subscriptions.length;
}

const UNKNOWN_OUTCOME = 'outcome unknown; not sent again in case the push service took it';
const PUSH_RETRIES: OutboxRetries = {
  channel: 'push',
  /** 30 s, 1 min, 2 min, 4 min between the attempts the push service did not take. */
  backoffMs: (attempts) => 30_000 * 2 ** Math.max(0, attempts - 1),
  unknownOutcome: UNKNOWN_OUTCOME,
};

/** The notice as the service worker reads it; one tag per kind, so a newer one replaces the older. */
const payloadOf = (row: { kind: PushNotificationKind; title: string; body: string; url: string }) =>
  ({
    kind: row.kind,
    title: row.title,
    body: row.body,
    url: row.url,
    tag: row.kind.startsWith('plan_ends') ? 'plan_ends' : row.kind,
  }) satisfies PushPayload;

/** Sends due pushes, one claim at a time; returns how many the push services accepted. */
export async function deliverPushOutbox(deps: OutboxDeps, gateway: PushGateway, limit = 50): Promise<number> {
  const { db } = deps.database;
  await failStaleSending(deps, pushMessages, PUSH_RETRIES);
  let accepted = 0;
  for (let i = 0; i < limit; i++) {
    const row = await claimDueRow(db, pushMessages, deps.clock.now());
    if (!row) break;
    const done = (values: Partial<typeof pushMessages.$inferInsert>) =>
      db
        .update(pushMessages)
        .set({ ...values, updatedAt: deps.clock.now() })
        .where(and(eq(pushMessages.id, row.id), eq(pushMessages.status, 'sending')));
    const [target] = row.subscriptionId
      ? await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, row.subscriptionId))
      : [];
    if (!target) {
      await done({ status: 'gone', error: 'the subscription was removed before it could be sent' });
      continue;
    }
    const outcome = await gateway.send(target, payloadOf(row));
    const log = { pushId: row.id, kind: row.kind, attempt: row.attempts };
    if (outcome.kind === 'accepted') {
      await done({ status: 'sent', error: null });
      accepted += 1;
    } else if (outcome.kind === 'gone') {
      // The browser will never take a push at this endpoint again: forget it, and what else waits for it.
      await db.transaction(async (tx) => {
        await tx
          .update(pushMessages)
          .set({ status: 'gone', error: outcome.error.slice(0, 500), updatedAt: deps.clock.now() })
          .where(and(eq(pushMessages.subscriptionId, target.id), sql`${pushMessages.status} in ('queued', 'sending')`));
        await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.id, target.id));
      });
      deps.logger.info({ ...log, status: outcome.status }, 'push subscription gone; removed');
    } else {
      const next = afterNotAccepted(outcome, row.attempts, deps.clock.now(), PUSH_RETRIES);
      await done(next.values);
      deps.logger.warn({ ...log, error: outcome.error }, next.message);
    }
  }
  return accepted;
}

export function startPushDispatcher(
  deps: OutboxDeps & { metrics: Metrics },
  gateway: PushGateway,
  intervalMs: number,
): () => Promise<void> {
  const onError = (error: unknown) => deps.logger.error({ err: error }, 'push dispatcher failed');
  return startIntervalJob(
    observedPass(deps, 'push', () => deliverPushOutbox(deps, gateway), onError),
    intervalMs,
    onError,
  );
}
