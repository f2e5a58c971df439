import { eq, ilike, sql, type SQL } from 'drizzle-orm';
import { pushMessages, users } from '../../db/schema.ts';
import { exactAt, type Listed, type MessageSource, newestAfter } from './sources.ts';

/** Shown in place of Resend: a push is news of the moment, and the next one goes out when there is news. */
export const PUSH_NOT_RESENT = 'Push notifications are not resent: the next one goes out when there is news.';

const pushColumns = {
  id: pushMessages.id,
  kind: pushMessages.kind,
  title: pushMessages.title,
  body: pushMessages.body,
  status: pushMessages.status,
  error: pushMessages.error,
  attempts: pushMessages.attempts,
  createdAt: pushMessages.createdAt,
  email: users.email,
  sortAt: exactAt(pushMessages.createdAt),
};

type PushRow = Pick<
  typeof pushMessages.$inferSelect,
  'id' | 'kind' | 'title' | 'body' | 'status' | 'error' | 'attempts' | 'createdAt'
> & { email: string; sortAt: string };

function pushMessage(row: PushRow): Listed {
  return {
    id: row.id,
    channel: 'push',
    to: row.email,
    purpose: row.kind,
    status: row.status,
    subject: row.title,
    body: row.body,
    not_resendable: PUSH_NOT_RESENT,
    attempts: row.attempts,
    parts: null,
    cost: null,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    resent_from: null,
    sortAt: row.sortAt,
  };
}

/** Web Push (decision 0153): a person's pushes are found by their account's phone or email, like their SMS and mail. */
export const pushSource: MessageSource = {
  channel: 'push',
  async list(exec, { status, search, cursor, limit }) {
    let match: SQL | undefined;
    if (search.kind === 'phone') match = eq(users.phone, search.canonical);
    else if (search.kind === 'phone-part') match = sql`${users.phone} like ${`%${search.digits}%`}`;
    else if (search.kind === 'email') match = sql`lower(${users.email}) = ${search.address.toLowerCase()}`;
    else if (search.kind === 'text') match = ilike(users.email, search.pattern);
    if (status === 'delivered') return [];
    const page = newestAfter(pushMessages, { match, status, cursor });
    const rows = await exec
      .select(pushColumns)
      .from(pushMessages)
      .innerJoin(users, eq(users.id, pushMessages.userId))
      .where(page.where)
      .orderBy(...page.orderBy)
      .limit(limit);
    return rows.map(pushMessage);
  },
  async find(exec, id) {
    const [found] = await exec
      .select(pushColumns)
      .from(pushMessages)
      .innerJoin(users, eq(users.id, pushMessages.userId))
      .where(eq(pushMessages.id, id));
    return found && pushMessage(found);
  },
};
