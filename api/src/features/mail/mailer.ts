import type { Logger } from 'pino';
import type { Executor } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';

export interface Mail {
  to: string;
  subject: string;
  body: string;
  /** What the mail is for (agent_credentials, receipt, …), for the log and the outbox. */
  kind: string;
}

/**
 * Mail is queued in the caller's transaction, so it exists exactly when the change that caused it
 * does. Delivery (SMTP when configured) reads the outbox; by default the log line is the delivery.
 */
export interface Mailer {
  queue(exec: Executor, mail: Mail): Promise<void>;
}

export function outboxMailer(logger: Logger): Mailer {
  return {
    async queue(exec, mail) {
      const [row] = await exec
        .insert(mailOutbox)
        .values({ toAddress: mail.to, subject: mail.subject, body: mail.body, kind: mail.kind })
        .returning({ id: mailOutbox.id });
      // The body can hold credentials: it stays in the outbox and is never logged.
      logger.info({ mailId: row!.id, to: mail.to, subject: mail.subject, kind: mail.kind }, 'mail queued');
    },
  };
}
