import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database, Executor } from '../../db/client.ts';
import { smsOutbox } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { startIntervalJob } from '../../lib/interval-job.ts';
import { afterNotAccepted, claimDueRow, failStaleSending, type OutboxRetries } from '../../lib/outbox-claim.ts';
import { observedPass } from '../metrics/jobs.ts';
import type { Metrics } from '../metrics/registry.ts';
import { maskExpiredCodeMail } from '../mail/mailer.ts';
import { smsBudgetSetting } from '../settings/sms-budget.ts';
import type { SmsGateway } from './adapter.ts';
import { takeFromBudget } from './budget.ts';
import {
  budgetPurpose,
  CODE_MASK,
  CODE_PURPOSES,
  isCodePurpose,
  redactCodes,
  SIX_DIGITS_SQL,
} from '../../lib/outbox-codes.ts';
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
const SENSITIVE_PURPOSES = ['agent_credentials', 'subscriber_credentials'];
export const REMOVED_SENT = '[sent; removed from the outbox: it held a password]';
export const REMOVED_UNSENT = '[not sent; removed from the outbox: it held a password]';

/**
 * The body a row keeps once it reaches `status`: a password goes whole, a code's digits are masked (decision 0202):
 * the console still shows what was sent, and the outbox no longer holds a code anyone could use.
 */
function keptBody(purpose: string, status: string | undefined, body: string): { body?: string } {
  if (status === undefined || status === 'queued') return {};
  if (isCodePurpose(purpose)) return { body: redactCodes(body) };
  if (!SENSITIVE_PURPOSES.includes(purpose)) return {};
  return { body: status === 'failed' ? REMOVED_UNSENT : REMOVED_SENT };
}

/** A code row's body with its digits masked, in SQL (for updates of many rows). */
const maskedCodes = sql`case when ${inArray(smsOutbox.purpose, [...CODE_PURPOSES])}
  then regexp_replace(${smsOutbox.body}, ${SIX_DIGITS_SQL}, ${CODE_MASK}, 'g') else ${smsOutbox.body} end`;

const UNKNOWN_OUTCOME = 'outcome unknown; not sent again in case the gateway took it';
const SMS_RETRIES: OutboxRetries = {
  channel: 'sms',
  /** 5 s, 10 s, 20 s, 40 s between the attempts the gateway did not accept. */
  backoffMs: (attempts) => 5000 * 2 ** Math.max(0, attempts - 1),
  unknownOutcome: UNKNOWN_OUTCOME,
};

/** Sends due messages, one claim at a time; returns how many the gateway accepted. */
export async function deliverSmsOutbox(deps: OutboxDeps, gateway: SmsGateway, limit = 20): Promise<number> {
  const { db } = deps.database;
  await failStaleSending(deps, smsOutbox, SMS_RETRIES, {
    body: sql`case when ${inArray(smsOutbox.purpose, SENSITIVE_PURPOSES)} then ${REMOVED_UNSENT} else ${maskedCodes} end`,
  });
  // Here because this pass runs on every install; the mail dispatcher runs only with SMTP (decision 0202).
  await maskExpiredCodeMail(db, deps.clock.now());
  const budget = await smsBudgetSetting(db);
  let accepted = 0;
  for (let i = 0; i < limit; i++) {
    const row = await claimDueRow(db, smsOutbox, deps.clock.now());
    if (!row) break;
    const done = (values: Partial<typeof smsOutbox.$inferInsert>) =>
      db
        .update(smsOutbox)
        .set({ ...values, ...keptBody(row.purpose, values.status, row.body), updatedAt: deps.clock.now() })
        .where(and(eq(smsOutbox.id, row.id), eq(smsOutbox.status, 'sending')));
    if (row.expiresAt && row.expiresAt <= deps.clock.now()) {
      await done({ status: 'failed', error: 'expired before it could be sent' });
      continue;
    }
    // Codes took their text from the budget when they were asked for; the rest take it now, or wait their turn
    // (decision 0201): a receipt is never dropped, and the wait is not an attempt.
    const purpose = budgetPurpose(row.purpose);
    if (purpose !== 'codes') {
      const until = await takeFromBudget(db, deps.logger, purpose, budget, deps.clock.now());
      if (until) {
        await done({ status: 'queued', nextAttemptAt: until, attempts: row.attempts - 1 });
        deps.logger.info({ smsId: row.id, purpose: row.purpose, until: until.toISOString() }, 'sms held by budget');
        continue;
      }
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
    } else {
      const next = afterNotAccepted(outcome, row.attempts, deps.clock.now(), SMS_RETRIES);
      await done(next.values);
      deps.logger.warn({ ...log, error: outcome.error }, next.message);
    }
  }
  return accepted;
}

/**
 * At start, under the start-up lock: passwords nothing will send are removed — queued ones while the dispatcher is
 * off, and any left on a row that is no longer queued or sending. Returns how many bodies were removed. (Codes are
 * masked as their rows leave `sending`; the migration of decision 0202 masked those of earlier releases.)
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
