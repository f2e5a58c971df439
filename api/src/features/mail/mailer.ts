import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Executor } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import { CODE_MASK, SIX_DIGITS_SQL } from '../../lib/outbox-codes.ts';

interface Mail {
  to: string;
  subject: string;
  body: string;
  /** What the mail is for (agent_credentials, receipt, …), for the log and the outbox. */
  kind: string;
  /**
   * A secret inside `body` (a generated password). Without SMTP nothing would ever deliver the mail, so the
   * outbox keeps the body with the secret replaced (the admin is shown it once instead; decision 0107).
   */
  secret?: string;
  /** When the code in `body` stops working: it is masked in the outbox from then on (decision 0202). */
  expiresAt?: Date;
}

/** Kinds whose body carries credentials: blanked once delivered or given up on, never kept undeliverable. */
export const SENSITIVE_KINDS = ['agent_credentials'];
const WITHHELD_SECRET = '(not kept in the outbox: your administrator will give it to you)';
const REMOVED_BODY = '[removed from the outbox: it held credentials]';

/**
 * Mail is queued in the caller's transaction, so it exists exactly when the change that caused it
 * does. Delivery (SMTP when configured) reads the outbox; by default the log line is the delivery.
 */
export interface Mailer {
  queue(exec: Executor, mail: Mail): Promise<void>;
}

/** `delivers`: SMTP is configured, so a queued mail is sent (and a sensitive body blanked) within seconds. */
export function outboxMailer(logger: Logger, options: { delivers: boolean }): Mailer {
  return {
    async queue(exec, mail) {
      const body = mail.secret && !options.delivers ? mail.body.split(mail.secret).join(WITHHELD_SECRET) : mail.body;
      const [row] = await exec
        .insert(mailOutbox)
        .values({ toAddress: mail.to, subject: mail.subject, body, kind: mail.kind, expiresAt: mail.expiresAt ?? null })
        .returning({ id: mailOutbox.id });
      // The body can hold credentials: it stays in the outbox and is never logged.
      logger.info({ mailId: row!.id, to: mail.to, subject: mail.subject, kind: mail.kind }, 'mail queued');
    },
  };
}

/**
 * At start: credentials nothing will deliver are removed from the outbox — queued ones while SMTP is off (kept
 * by earlier releases), and ones the dispatcher gave up on. Returns how many bodies were removed.
 */
export async function forgetUndeliverableSecrets(exec: Executor, delivers: boolean): Promise<number> {
  const rows = await exec
    .update(mailOutbox)
    .set({ body: REMOVED_BODY })
    .where(
      and(
        inArray(mailOutbox.kind, SENSITIVE_KINDS),
        delivers
          ? eq(mailOutbox.status, 'failed')
          : or(eq(mailOutbox.status, 'queued'), eq(mailOutbox.status, 'failed')),
      ),
    )
    .returning({ id: mailOutbox.id });
  return rows.length;
}

/**
 * Masks the codes in code mail (recovery by email) once they have expired, whether or not SMTP sent it (decision
 * 0202): without SMTP the outbox is the delivery, and a code is only useful while it works. `expires_at` is cleared
 * as the code is masked, so its partial index holds only the mail still to mask and this query stays small.
 */
export async function maskExpiredCodeMail(exec: Executor, now: Date): Promise<number> {
  const rows = await exec
    .update(mailOutbox)
    .set({
      body: sql`regexp_replace(${mailOutbox.body}, ${SIX_DIGITS_SQL}, ${CODE_MASK}, 'g')`,
      expiresAt: null,
    })
    .where(lte(mailOutbox.expiresAt, now))
    .returning({ id: mailOutbox.id });
  return rows.length;
}
