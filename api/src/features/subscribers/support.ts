import {
  kampalaMonth,
  kampalaMonthStart,
  type SupportContext,
  type SupportHistory,
  type SupportSmsOutcome,
  SUPPORT_HISTORY_LIMIT,
} from '@filamu/shared';
import { aliasedTable, and, count, desc, eq, gte, inArray } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { downloads, movies, redownloads, smsOutbox, supportActions, users } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { UserRow } from '../../http/principal.ts';
import { redownloadAllowance } from '../downloads/redownloads.ts';
import { queueSms } from '../sms/outbox.ts';

export interface SupportDeps {
  database: Database;
  clock: Clock;
  config: Pick<Config, 'redownloadsPerMonth' | 'sms'>;
}

/** Movies the support dialog lists: enough to recognise the lost one, few enough to read at a glance. */
const RECENT_DOWNLOADS = 8;

/**
 * Whether a support text may go to the person (decision 0214): only to a phone proven theirs, as recovery codes
 * (decision 0197), since a number typed at registration may be someone else's; and only when the outbox sends.
 */
export function supportSmsOutcome(
  user: Pick<UserRow, 'phone' | 'phoneVerifiedAt'>,
  config: SupportDeps['config'],
): SupportSmsOutcome {
  if (!user.phone) return 'no_phone';
  if (!user.phoneVerifiedAt) return 'phone_not_confirmed';
  if (config.sms.dispatchIntervalMs <= 0) return 'sms_off';
  return 'queued';
}

/**
 * Queues the text when the person may get it and writes the action into their history, in the caller's transaction:
 * the entry exists exactly when the action does. Returns whether the text went.
 */
export async function recordSupportAction(
  deps: SupportDeps,
  tx: Executor,
  entry: {
    user: UserRow;
    adminId: string;
    action: 'redownload_granted' | 'password_reset';
    note: string | null;
    text: { body: string; purpose: string };
  },
): Promise<SupportSmsOutcome> {
  const now = deps.clock.now();
  const sms = supportSmsOutcome(entry.user, deps.config);
  const smsId =
    sms === 'queued'
      ? await queueSms(tx, now, { to: entry.user.phone!, text: entry.text.body, purpose: entry.text.purpose })
      : null;
  await tx.insert(supportActions).values({
    userId: entry.user.id,
    adminId: entry.adminId,
    action: entry.action,
    note: entry.note || null,
    sms,
    smsId,
    createdAt: now,
  });
  return sms;
}

async function findUser(exec: Executor, id: string): Promise<UserRow> {
  const [user] = await exec.select().from(users).where(eq(users.id, id));
  if (!user) throw notFound('Subscriber');
  return user;
}

/** What an operator reads before granting a re-download: this month's use against the allowance, and recent movies. */
export async function supportContext(deps: SupportDeps, id: string): Promise<SupportContext> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const month = kampalaMonth(now);
  const user = await findUser(db, id);
  const [allowance, [started], [granted], recent] = await Promise.all([
    redownloadAllowance(db, id, deps.config.redownloadsPerMonth, now),
    db
      .select({ n: count() })
      .from(downloads)
      .where(and(eq(downloads.userId, id), gte(downloads.createdAt, kampalaMonthStart(now)))),
    db
      .select({ n: count() })
      .from(redownloads)
      .where(and(eq(redownloads.userId, id), eq(redownloads.month, month), eq(redownloads.source, 'granted'))),
    db
      .select({
        id: downloads.id,
        movieId: downloads.movieId,
        title: movies.title,
        status: downloads.status,
        startedAt: downloads.createdAt,
        completedAt: downloads.completedAt,
        fetchedBytes: downloads.fetchedBytes,
      })
      .from(downloads)
      .innerJoin(movies, eq(movies.id, downloads.movieId))
      .where(eq(downloads.userId, id))
      .orderBy(desc(downloads.lastActivityAt), desc(downloads.id))
      .limit(RECENT_DOWNLOADS),
  ]);
  const again =
    recent.length === 0
      ? []
      : await db
          .select({ downloadId: redownloads.downloadId, n: count() })
          .from(redownloads)
          .where(
            and(
              eq(redownloads.month, month),
              inArray(
                redownloads.downloadId,
                recent.map((r) => r.id),
              ),
            ),
          )
          .groupBy(redownloads.downloadId);
  const againOf = new Map(again.map((r) => [r.downloadId, Number(r.n)]));
  return {
    month,
    downloadsThisMonth: Number(started?.n ?? 0),
    grantedUsedThisMonth: Number(granted?.n ?? 0),
    redownloads: allowance,
    phone: user.phone,
    phoneConfirmed: user.phone !== null && user.phoneVerifiedAt !== null,
    sms: supportSmsOutcome(user, deps.config),
    recentDownloads: recent.map((r) => ({
      movieId: r.movieId,
      title: r.title,
      status: r.status,
      startedAt: r.startedAt.toISOString(),
      completedAt: r.completedAt?.toISOString() ?? null,
      fetchedBytes: r.fetchedBytes,
      redownloadsThisMonth: againOf.get(r.id) ?? 0,
    })),
  };
}

/** The person's history, newest first: what admins did for them, with the note and the text's fate. */
export async function subscriberHistory(deps: SupportDeps, id: string): Promise<SupportHistory> {
  const { db } = deps.database;
  await findUser(db, id);
  const admin = aliasedTable(users, 'admin');
  const rows = await db
    .select({
      id: supportActions.id,
      at: supportActions.createdAt,
      action: supportActions.action,
      adminName: admin.fullName,
      adminEmail: admin.email,
      note: supportActions.note,
      sms: supportActions.sms,
      smsStatus: smsOutbox.status,
    })
    .from(supportActions)
    .leftJoin(admin, eq(admin.id, supportActions.adminId))
    .leftJoin(smsOutbox, eq(smsOutbox.id, supportActions.smsId))
    .where(eq(supportActions.userId, id))
    .orderBy(desc(supportActions.createdAt), desc(supportActions.id))
    .limit(SUPPORT_HISTORY_LIMIT);
  return {
    entries: rows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      action: r.action,
      admin: r.adminEmail === null ? null : { name: r.adminName ?? '', email: r.adminEmail },
      note: r.note,
      sms: r.sms,
      smsStatus: r.smsStatus,
    })),
  };
}
