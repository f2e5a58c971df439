import type { MessageChannel, MessageStatus, OutboundMessage } from '@filamu/shared';
import { type AnyColumn, and, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { mailOutbox, smsOutbox } from '../../db/schema.ts';
import { isCodePurpose, isRedacted } from '../../lib/outbox-codes.ts';
import { HIDDEN_BODY, withheldReason } from './withheld.ts';

/** Where a page starts: after this message in (created_at desc, id desc) order; `at` has microseconds. */
export interface Cursor {
  at: string;
  id: string;
}

/** What a search typed in the console asks of each source (decision 0156). */
export type Search =
  | { kind: 'none' }
  | { kind: 'phone'; canonical: string }
  | { kind: 'phone-part'; digits: string }
  | { kind: 'email'; address: string }
  | { kind: 'text'; pattern: string };

interface ListFilter {
  status?: MessageStatus;
  search: Search;
  cursor?: Cursor;
  limit: number;
}

/** A row of the console's list with its exact sort key. */
export type Listed = Omit<OutboundMessage, 'recipient_name'> & { sortAt: string };

/** One channel's messages. The Messages view is the union of these, merged by (created_at, id). */
export interface MessageSource {
  channel: MessageChannel;
  /** The first `limit` messages after the cursor matching the filter, newest first; [] when the search is not for it. */
  list(exec: Executor, filter: ListFilter): Promise<Listed[]>;
  find(exec: Executor, id: string): Promise<Listed | undefined>;
  /** Queues a copy of the message (the caller checked it may be resent); returns the new message. None: never resent. */
  copy?(exec: Executor, id: string, now: Date): Promise<Listed | undefined>;
}

/** Microsecond-exact UTC text of a timestamp: cursors round-trip through it without losing rows. */
export const exactAt = (column: AnyColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * One source's page: its rows matching the search and status after the cursor, newest first. The order and the
 * cursor compare the same (created_at, id) pair, so pages neither skip nor repeat a row.
 */
export function newestAfter(
  outbox: { createdAt: AnyColumn; id: AnyColumn; status: AnyColumn },
  filter: { match: SQL | undefined; status: MessageStatus | undefined; cursor: Cursor | undefined },
) {
  const { match, status, cursor } = filter;
  const after = cursor
    ? sql`(${outbox.createdAt}, ${outbox.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
    : undefined;
  return {
    where: and(match, status ? eq(outbox.status, status) : undefined, after),
    orderBy: [desc(outbox.createdAt), desc(outbox.id)],
  };
}

/** A code's message is shown once its code is masked (decision 0202); until then, and a password always, hidden. */
const withheld = (purpose: string, body: string) => {
  const reason = withheldReason(purpose);
  const shown = !reason || (isCodePurpose(purpose) && isRedacted(body) && !/\d{6}/.test(body));
  return { not_resendable: reason, body: shown ? body : HIDDEN_BODY };
};

type SmsRow = typeof smsOutbox.$inferSelect & { sortAt: string };

function smsMessage(row: SmsRow): Listed {
  return {
    id: row.id,
    channel: 'sms',
    to: row.toPhone,
    purpose: row.purpose,
    status: row.status,
    subject: null,
    ...withheld(row.purpose, row.body),
    attempts: row.attempts,
    parts: row.parts,
    cost: row.cost,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    resent_from: row.resentFrom,
    sortAt: row.sortAt,
  };
}

const smsColumns = { row: smsOutbox, sortAt: exactAt(smsOutbox.createdAt) };

export const smsSource: MessageSource = {
  channel: 'sms',
  async list(exec, { status, search, cursor, limit }) {
    let match: SQL | undefined;
    if (search.kind === 'phone') match = eq(smsOutbox.toPhone, search.canonical);
    else if (search.kind === 'phone-part') match = sql`${smsOutbox.toPhone} like ${`%${search.digits}%`}`;
    else if (search.kind !== 'none') return [];
    if (status === 'gone') return [];
    const page = newestAfter(smsOutbox, { match, status, cursor });
    const rows = await exec
      .select(smsColumns)
      .from(smsOutbox)
      .where(page.where)
      .orderBy(...page.orderBy)
      .limit(limit);
    return rows.map(({ row, sortAt }) => smsMessage({ ...row, sortAt }));
  },
  async find(exec, id) {
    const [found] = await exec.select(smsColumns).from(smsOutbox).where(eq(smsOutbox.id, id));
    return found && smsMessage({ ...found.row, sortAt: found.sortAt });
  },
  async copy(exec, id, now) {
    const [original] = await exec.select().from(smsOutbox).where(eq(smsOutbox.id, id));
    if (!original) return undefined;
    const [row] = await exec
      .insert(smsOutbox)
      .values({
        toPhone: original.toPhone,
        body: original.body,
        purpose: original.purpose,
        resentFrom: original.id,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: smsOutbox.id });
    return smsSource.find(exec, row!.id);
  },
};

type MailRow = typeof mailOutbox.$inferSelect & { sortAt: string };

function mailMessage(row: MailRow): Listed {
  return {
    id: row.id,
    channel: 'email',
    to: row.toAddress,
    purpose: row.kind,
    status: row.status,
    subject: row.subject,
    ...withheld(row.kind, row.body),
    attempts: row.attempts,
    parts: null,
    cost: null,
    error: row.status === 'failed' ? 'The mail server did not take it after five attempts.' : null,
    created_at: row.createdAt.toISOString(),
    resent_from: row.resentFrom,
    sortAt: row.sortAt,
  };
}

const mailColumns = { row: mailOutbox, sortAt: exactAt(mailOutbox.createdAt) };

export const emailSource: MessageSource = {
  channel: 'email',
  async list(exec, { status, search, cursor, limit }) {
    let match: SQL | undefined;
    if (search.kind === 'email') match = sql`lower(${mailOutbox.toAddress}) = ${search.address.toLowerCase()}`;
    else if (search.kind === 'text') match = ilike(mailOutbox.toAddress, search.pattern);
    else if (search.kind !== 'none') return [];
    // Mail has no `sending` or `delivered`: asking for them is asking for none of its rows.
    if (status && !['queued', 'sent', 'failed'].includes(status)) return [];
    const page = newestAfter(mailOutbox, { match, status, cursor });
    const rows = await exec
      .select(mailColumns)
      .from(mailOutbox)
      .where(page.where)
      .orderBy(...page.orderBy)
      .limit(limit);
    return rows.map(({ row, sortAt }) => mailMessage({ ...row, sortAt }));
  },
  async find(exec, id) {
    const [found] = await exec.select(mailColumns).from(mailOutbox).where(eq(mailOutbox.id, id));
    return found && mailMessage({ ...found.row, sortAt: found.sortAt });
  },
  async copy(exec, id, now) {
    const [original] = await exec.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    if (!original) return undefined;
    const [row] = await exec
      .insert(mailOutbox)
      .values({
        toAddress: original.toAddress,
        subject: original.subject,
        body: original.body,
        kind: original.kind,
        resentFrom: original.id,
        createdAt: now,
      })
      .returning({ id: mailOutbox.id });
    return emailSource.find(exec, row!.id);
  },
};
