import { and, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Executor } from '../../db/client.ts';
import { smsOutbox } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { startIntervalJob } from '../../lib/interval-job.ts';
import { claimDueRow } from '../../lib/outbox-claim.ts';
import { observedPass } from '../metrics/jobs.ts';
import type { Metrics } from '../metrics/registry.ts';
import type { SmsGateway } from './adapter.ts';
import { type AtDeliveryReport, DELIVERED_STATUSES, UNDELIVERED_STATUSES } from './protocol.ts';

export interface Sms {
  /** Canonical 256XXXXXXXXX. */
  to: string;
  text: string;
  /** password_reset, … */
  purpose: string;
  /** Not worth sending after this (an expired code). */
  expiresAt?: Date;
}

type OutboxDeps = { database: Database; clock: Clock; logger: Logger };

/** Queued in the caller's transaction: the message exists exactly when the change that caused it does. */
export async function queueSms(exec: Executor, now: Date, sms: Sms): Promise<string> {
  const [row] = await exec
    .insert(smsOutbox)
    .values({
      toPhone: sms.to,
      body: sms.text,
      purpose: sms.purpose,
      expiresAt: sms.expiresAt ?? null,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: smsOutbox.id });
  return row!.id;
}

/**
 * Purposes whose text carries a password: the body stays only while the outbox may still send it, and is replaced
 * once the gateway took it or it failed for good (decision 0151). The person was shown it once; the phone has it.
 */
const SENSITIVE_PURPOSES = ['agent_credentials'];
export const REMOVED_SENT = '[sent; removed from the outbox: it held a password]';
export const REMOVED_UNSENT = '[not sent; removed from the outbox: it held a password]';

/** The body a row keeps once it reaches `status`. */
function keptBody(purpose: string, status: string | undefined): { body?: string } {
  if (!SENSITIVE_PURPOSES.includes(purpose) || status === undefined || status === 'queued') return {};
  return { body: status === 'failed' ? REMOVED_UNSENT : REMOVED_SENT };
}

const MAX_ATTEMPTS = 5;
/** 5 s, 10 s, 20 s, 40 s between the attempts the gateway did not accept. */
const backoffMs = (attempts: number) => 5000 * 2 ** Math.max(0, attempts - 1);
/** A row `sending` this long belongs to a call that never finished (a replica died mid-call). */
export const STALE_SENDING_MS = 5 * 60_000;
const UNKNOWN_OUTCOME = 'outcome unknown; not sent again in case the gateway took it';

/** Sends due messages, one claim at a time; returns how many the gateway accepted. */
export async function deliverSmsOutbox(deps: OutboxDeps, gateway: SmsGateway, limit = 20): Promise<number> {
  const { db } = deps.database;
  await failStaleSending(deps);
  let accepted = 0;
  for (let i = 0; i < limit; i++) {
    const row = await claimDueRow(db, smsOutbox, deps.clock.now());
    if (!row) break;
    const done = (values: Partial<typeof smsOutbox.$inferInsert>) =>
      db
        .update(smsOutbox)
        .set({ ...values, ...keptBody(row.purpose, values.status), updatedAt: deps.clock.now() })
        .where(and(eq(smsOutbox.id, row.id), eq(smsOutbox.status, 'sending')));
    if (row.expiresAt && row.expiresAt <= deps.clock.now()) {
      await done({ status: 'failed', error: 'expired before it could be sent' });
      continue;
    }
    const outcome = await gateway.send(row.toPhone, row.body);
    const log = { smsId: row.id, purpose: row.purpose, attempt: row.attempts };
    if (outcome.kind === 'accepted') {
      await done({
        status: 'sent',
        sentAt: deps.clock.now(),
        gatewayMessageId: outcome.messageId,
        parts: outcome.parts,
        cost: outcome.cost,
        error: null,
      });
      deps.logger.info({ ...log, messageId: outcome.messageId, parts: outcome.parts }, 'sms sent');
      accepted += 1;
    } else if (outcome.kind === 'unknown') {
      // Never resent blindly: a second code to the same phone is worse than asking the person to ask again.
      await done({ status: 'failed', error: `${UNKNOWN_OUTCOME}: ${outcome.error}`.slice(0, 500) });
      deps.logger.warn({ ...log, error: outcome.error }, 'sms outcome unknown; not resent');
    } else if (outcome.retryable && row.attempts < MAX_ATTEMPTS) {
      await done({
        status: 'queued',
        nextAttemptAt: new Date(deps.clock.now().getTime() + backoffMs(row.attempts)),
        error: outcome.error.slice(0, 500),
      });
      deps.logger.warn({ ...log, error: outcome.error }, 'sms not accepted; will retry');
    } else {
      await done({ status: 'failed', error: outcome.error.slice(0, 500) });
      deps.logger.warn({ ...log, error: outcome.error }, 'sms refused');
    }
  }
  return accepted;
}

async function failStaleSending(deps: OutboxDeps): Promise<void> {
  const cutoff = new Date(deps.clock.now().getTime() - STALE_SENDING_MS);
  const stale = await deps.database.db
    .update(smsOutbox)
    .set({
      status: 'failed',
      error: `${UNKNOWN_OUTCOME}: the sending replica stopped`,
      body: sql`case when ${inArray(smsOutbox.purpose, SENSITIVE_PURPOSES)} then ${REMOVED_UNSENT} else ${smsOutbox.body} end`,
      updatedAt: deps.clock.now(),
    })
    .where(and(eq(smsOutbox.status, 'sending'), lt(smsOutbox.updatedAt, cutoff)))
    .returning({ id: smsOutbox.id });
  if (stale.length > 0) deps.logger.warn({ messages: stale.length }, 'sms left sending by a stopped replica');
}

/**
 * At start, under the start-up lock: passwords nothing will send are removed — queued ones while the dispatcher is
 * off, and any left on a row that is no longer queued or sending. Returns how many bodies were removed.
 */
export async function forgetUnsendableSmsSecrets(exec: Executor, dispatches: boolean): Promise<number> {
  const rows = await exec
    .select({ id: smsOutbox.id, status: smsOutbox.status })
    .from(smsOutbox)
    .where(
      and(
        inArray(smsOutbox.purpose, SENSITIVE_PURPOSES),
        notInArray(smsOutbox.body, [REMOVED_SENT, REMOVED_UNSENT]),
        notInArray(smsOutbox.status, dispatches ? ['sending', 'queued'] : ['sending']),
      ),
    );
  for (const row of rows) {
    const unsent = row.status === 'queued' || row.status === 'failed';
    await exec
      .update(smsOutbox)
      .set({
        body: unsent ? REMOVED_UNSENT : REMOVED_SENT,
        ...(row.status === 'queued' && { status: 'failed' as const, error: 'not sent: the SMS dispatcher is off' }),
      })
      .where(eq(smsOutbox.id, row.id));
  }
  return rows.length;
}

/**
 * A delivery report: Success ⇒ delivered, Failed/Rejected/Expired ⇒ failed with the reason; intermediate statuses
 * change nothing. Reports may repeat or arrive late; a delivered message stays delivered. False: no such message.
 */
export async function applyDeliveryReport(
  deps: { database: Database; clock: Clock },
  report: AtDeliveryReport,
): Promise<boolean> {
  const now = deps.clock.now();
  const { db } = deps.database;
  const [row] = await db.select({ id: smsOutbox.id }).from(smsOutbox).where(eq(smsOutbox.gatewayMessageId, report.id));
  if (!row) return false;
  if (DELIVERED_STATUSES.includes(report.status)) {
    await db
      .update(smsOutbox)
      .set({ status: 'delivered', deliveredAt: now, updatedAt: now })
      .where(and(eq(smsOutbox.id, row.id), inArray(smsOutbox.status, ['sent', 'failed'])));
  } else if (UNDELIVERED_STATUSES.includes(report.status)) {
    await db
      .update(smsOutbox)
      .set({
        status: 'failed',
        error: `${report.status}: ${report.failureReason ?? 'no reason given'}`,
        updatedAt: now,
      })
      .where(and(eq(smsOutbox.id, row.id), eq(smsOutbox.status, 'sent')));
  }
  return true;
}

export function startSmsDispatcher(
  deps: OutboxDeps & { metrics: Metrics },
  gateway: SmsGateway,
  intervalMs: number,
): () => Promise<void> {
  const onError = (error: unknown) => deps.logger.error({ err: error }, 'sms dispatcher failed');
  return startIntervalJob(
    observedPass(deps, 'sms', () => deliverSmsOutbox(deps, gateway), onError),
    intervalMs,
    onError,
  );
}
