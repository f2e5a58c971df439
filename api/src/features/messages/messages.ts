import {
  canonicalUgandaPhone,
  digitsOnly,
  type MessageChannel,
  type MessageList,
  type MessageListQuery,
  type OutboundMessage,
  type SmsGatewayState,
} from '@filamu/shared';
import type { z } from 'zod';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { hitLimits, type Limit } from '../rate-limit/limiter.ts';
import { type Cursor, emailSource, type Listed, type MessageSource, type Search, smsSource } from './sources.ts';
import { PUSH_NOT_RESENT, pushSource } from './push-source.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Database } from '../../db/client.ts';
import { agents, users } from '../../db/schema.ts';
import { inArray, or } from 'drizzle-orm';
import type { SmsGateway } from '../sms/adapter.ts';
import type { SmsSimulator } from '../sms/simulator.ts';

interface MessageDeps {
  database: Database;
  clock: Clock;
}

/** The channels the console lists, merged newest first (decision 0156). */
const SOURCES: MessageSource[] = [smsSource, emailSource, pushSource];

/** `%`, `_` and `\` typed by a person match themselves, not any character. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** What the admin typed, read once: a whole phone number in any spelling, part of one, an email, or text. */
function readSearch(q: string | undefined): Search {
  const text = q?.trim() ?? '';
  if (!text) return { kind: 'none' };
  const phone = canonicalUgandaPhone(text);
  if (phone) return { kind: 'phone', canonical: phone };
  if (text.includes('@')) return { kind: 'email', address: text };
  if (/^[\d\s+()-]+$/.test(text)) {
    const digits = digitsOnly(text);
    // The local 07… form is stored as 2567…; a shorter part matches anywhere in the number.
    return { kind: 'phone-part', digits: digits.startsWith('0') ? `256${digits.slice(1)}` : digits };
  }
  return { kind: 'text', pattern: likePattern(text) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EXACT_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const encodeCursor = (m: Listed) => Buffer.from(`${m.sortAt}|${m.id}`).toString('base64url');

function decodeCursor(raw: string | undefined): Cursor | undefined {
  if (!raw) return undefined;
  const [at, id] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (!at || !id || !EXACT_AT.test(at) || !UUID.test(id)) {
    throw new AppError('bad_request', 'That page link is not valid any more. Start again from the first page.');
  }
  return { at, id };
}

/** Newest first, then the larger id: the order every source sorts in, so a merge of their pages is a page. */
const newestFirst = (a: Listed, b: Listed) =>
  a.sortAt === b.sortAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.sortAt < b.sortAt ? 1 : -1;

const publicView = ({ sortAt: _sortAt, ...message }: Listed): Omit<OutboundMessage, 'recipient_name'> => message;

/**
 * The name of the account (subscriber, admin or agent) each message went to, looked up once for the page: support
 * reads "Grace Nakato · 0772 123 456", not a bare number. Null for an address no account has any more.
 */
async function withRecipientNames(
  database: Database,
  messages: Array<Omit<OutboundMessage, 'recipient_name'>>,
): Promise<OutboundMessage[]> {
  const addresses = [...new Set(messages.map((m) => m.to))];
  if (addresses.length === 0) return [];
  const db = database.db;
  const [people, staff] = await Promise.all([
    db
      .select({ email: users.email, phone: users.phone, name: users.fullName })
      .from(users)
      .where(or(inArray(users.email, addresses), inArray(users.phone, addresses))),
    db
      .select({ email: agents.email, phone: agents.phone, name: agents.fullName })
      .from(agents)
      .where(or(inArray(agents.email, addresses), inArray(agents.phone, addresses))),
  ]);
  const names = new Map<string, string>();
  for (const { email, phone, name } of [...staff, ...people]) {
    names.set(email, name);
    if (phone) names.set(phone, name);
  }
  return messages.map((m) => ({ ...m, recipient_name: names.get(m.to) ?? null }));
}

/**
 * Keyset pages over the union of the channels: each source gives its first `limit + 1` after the cursor, the merge
 * keeps the first `limit`, and the last one shown is the next cursor. Bounded work per page whatever the offset.
 */
export async function listMessages(deps: MessageDeps, query: z.output<typeof MessageListQuery>): Promise<MessageList> {
  const filter = {
    status: query.status,
    search: readSearch(query.q),
    cursor: decodeCursor(query.cursor),
    limit: query.limit + 1,
  };
  const sources = SOURCES.filter((s) => !query.channel || s.channel === query.channel);
  const pages = await Promise.all(sources.map((s) => s.list(deps.database.db, filter)));
  const merged = pages.flat().sort(newestFirst);
  const page = merged.slice(0, query.limit);
  return {
    messages: await withRecipientNames(deps.database, page.map(publicView)),
    nextCursor: merged.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}

/**
 * Resend (decision 0156): one press is one copy, whoever presses and however often. Per message once a minute
 * (two admins pressing together get one copy and one 429) and five a day; per admin sixty an hour.
 */
const resendLimits = {
  perMessageMinute: { name: 'resend:msg-min', max: 1, windowSeconds: 60, refusal: 'This message was just resent' },
  perMessage: {
    name: 'resend:msg',
    max: 5,
    windowSeconds: 24 * 3600,
    refusal: 'This message has been resent five times today',
  },
  perAdmin: { name: 'resend:admin', max: 60, windowSeconds: 3600, refusal: 'Too many messages resent' },
} satisfies Record<string, Limit>;

export async function resendMessage(
  deps: MessageDeps,
  adminId: string,
  channel: MessageChannel,
  id: string,
): Promise<{ message: string; resent: OutboundMessage }> {
  const source = SOURCES.find((s) => s.channel === channel);
  if (!source?.copy) throw conflict(PUSH_NOT_RESENT);
  const original = await source.find(deps.database.db, id);
  if (!original) throw notFound('Message');
  if (original.not_resendable) throw conflict(`This message is not resendable. ${original.not_resendable}`);
  await hitLimits(deps.database.db, deps.clock.now(), [
    { limit: resendLimits.perMessageMinute, subject: `${channel}:${id}` },
    { limit: resendLimits.perMessage, subject: `${channel}:${id}` },
    { limit: resendLimits.perAdmin, subject: adminId },
  ]);
  const copy = await source.copy(deps.database.db, id, deps.clock.now());
  if (!copy) throw notFound('Message');
  const where = channel === 'sms' ? 'the SMS gateway' : 'the mail server';
  const [resent] = await withRecipientNames(deps.database, [publicView(copy)]);
  return { message: `A copy to ${copy.to} is queued for ${where}.`, resent: resent! };
}

export async function smsGatewayState(deps: {
  sms: SmsGateway;
  smsSimulator: SmsSimulator | null;
  clock: Clock;
}): Promise<SmsGatewayState> {
  const state = await deps.sms.state();
  return {
    gateway: deps.smsSimulator ? 'simulator' : 'africastalking',
    state: state.kind,
    balance: state.kind === 'ok' ? state.balance : null,
    checked_at: deps.clock.now().toISOString(),
  };
}
