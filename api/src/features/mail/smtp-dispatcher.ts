import { and, asc, eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { startIntervalJob } from '../../lib/interval-job.ts';
import { observedPass } from '../metrics/jobs.ts';
import type { Metrics } from '../metrics/registry.ts';
import { isCodePurpose, redactCodes } from '../../lib/outbox-codes.ts';
import { SENSITIVE_KINDS } from './mailer.ts';

export interface MailTransport {
  send(mail: { from: string; to: string; subject: string; text: string }): Promise<void>;
}

export function smtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
  return { send: async (mail) => void (await transporter.sendMail(mail)) };
}

const MAX_ATTEMPTS = 5;

/**
 * Sends queued outbox mail. Each row is claimed with FOR UPDATE SKIP LOCKED and marked in the same
 * transaction, so several server processes never send one mail twice. Returns how many were sent.
 */
export async function deliverOutbox(
  deps: { database: Database; clock: Clock; logger: Logger },
  transport: MailTransport,
  from: string,
  limit = 20,
): Promise<number> {
  let sent = 0;
  for (let i = 0; i < limit; i++) {
    const outcome = await deps.database.db.transaction(async (tx) => {
      const [mail] = await tx
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.status, 'queued'))
        .orderBy(asc(mailOutbox.createdAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!mail) return 'empty' as const;
      try {
        await transport.send({ from, to: mail.toAddress, subject: mail.subject, text: mail.body });
        await tx
          .update(mailOutbox)
          .set({
            status: 'sent',
            sentAt: deps.clock.now(),
            attempts: sql`${mailOutbox.attempts} + 1`,
            // Credentials are not kept once delivered.
            ...(SENSITIVE_KINDS.includes(mail.kind) && { body: '[delivered; removed from the outbox]' }),
            // Codes are masked: the mail reads as sent, minus a code anyone could use (decision 0202).
            ...(isCodePurpose(mail.kind) && { body: redactCodes(mail.body), expiresAt: null }),
          })
          .where(eq(mailOutbox.id, mail.id));
        deps.logger.info({ mailId: mail.id, kind: mail.kind }, 'mail sent');
        return 'sent' as const;
      } catch (error) {
        const failed = mail.attempts + 1 >= MAX_ATTEMPTS;
        await tx
          .update(mailOutbox)
          .set({
            attempts: sql`${mailOutbox.attempts} + 1`,
            // Nor once given up on: nothing will ever deliver them.
            ...(failed && { status: 'failed' as const }),
            ...(failed && SENSITIVE_KINDS.includes(mail.kind) && { body: '[not delivered; removed from the outbox]' }),
            ...(failed && isCodePurpose(mail.kind) && { body: redactCodes(mail.body), expiresAt: null }),
          })
          .where(and(eq(mailOutbox.id, mail.id)));
        deps.logger.warn({ mailId: mail.id, err: error, gaveUp: failed }, 'mail delivery failed');
        return 'failed' as const;
      }
    });
    if (outcome === 'empty') break;
    if (outcome === 'sent') sent += 1;
    // A failed row stays queued for the next round; move on rather than retrying it at once.
    if (outcome === 'failed') break;
  }
  return sent;
}

export function startMailDispatcher(
  deps: { database: Database; clock: Clock; logger: Logger; metrics: Metrics },
  transport: MailTransport,
  from: string,
  intervalMs: number,
): () => Promise<void> {
  const onError = (error: unknown) => deps.logger.error({ err: error }, 'mail dispatcher failed');
  const deliver = () => deliverOutbox(deps, transport, from);
  return startIntervalJob(observedPass(deps, 'mail', deliver, onError), intervalMs, onError);
}
