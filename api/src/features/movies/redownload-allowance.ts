import { formatDayMonth, kampalaMonth, nextKampalaMonthStart, type RedownloadAllowance } from '@filamu/shared';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { redownloads, users } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../http/errors.ts';

/**
 * A person's re-downloads (decisions 0121, 0122): a few a month, counted per Kampala calendar month, then any extra
 * an admin granted. Spent by a re-download of the bytes (the downloads feature) and by moving a film's licence back to
 * a phone that still holds the file (the licences feature, decision 0230): one allowance for both.
 */

const REDOWNLOADS_FOR_SUBSCRIBERS = 'Re-downloads are for subscriber accounts. Ask an admin for help.';

async function usedThisMonth(exec: Executor, userId: string, now: Date): Promise<number> {
  const [row] = await exec
    .select({ n: count() })
    .from(redownloads)
    .where(
      and(eq(redownloads.userId, userId), eq(redownloads.month, kampalaMonth(now)), eq(redownloads.source, 'monthly')),
    );
  return Number(row?.n ?? 0);
}

export function allowanceFrom(perMonth: number, used: number, extra: number, now: Date): RedownloadAllowance {
  return {
    perMonth,
    usedThisMonth: used,
    extra,
    remaining: Math.max(0, perMonth - used) + extra,
    renewsAt: nextKampalaMonthStart(now).toISOString(),
  };
}

/** A person's allowance as it stands now. */
export async function redownloadAllowance(
  exec: Executor,
  userId: string,
  perMonth: number,
  now: Date,
): Promise<RedownloadAllowance> {
  const [user] = await exec.select({ extra: users.extraRedownloads }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('User');
  return allowanceFrom(perMonth, await usedThisMonth(exec, userId, now), user.extra, now);
}

/** What the refusal says: when the month's allowance comes back, and that support can help before then. */
export function redownloadLimitMessage(allowance: RedownloadAllowance): string {
  const renews = formatDayMonth(allowance.renewsAt);
  const used =
    allowance.perMonth === 0
      ? 'Downloading a movie again needs a re-download from support.'
      : `You have used all ${allowance.perMonth} re-downloads for this month.`;
  return `${used} They renew on ${renews}. If you need this movie sooner, contact support: they can grant one.`;
}

/**
 * Spends one re-download on `downloadId`: the month's allowance first, then an extra one an admin granted; refused
 * with `redownload_limit` when none is left, and to agents. Runs inside the caller's transaction, under a lock that
 * makes concurrent requests spend one. `completed` records it as done at once (a licence moved without bytes, which
 * keeps the download's one open re-download free); otherwise the re-download stays open until its bytes arrive.
 * Answers the allowance after it.
 */
export async function spendRedownload(
  tx: Tx,
  caller: { kind: 'user' | 'agent'; id: string },
  downloadId: string,
  { perMonth, now, completed = false }: { perMonth: number; now: Date; completed?: boolean },
): Promise<RedownloadAllowance> {
  if (caller.kind !== 'user') throw forbidden(REDOWNLOADS_FOR_SUBSCRIBERS);
  const before = await redownloadAllowance(tx, caller.id, perMonth, now);
  if (before.remaining <= 0) throw new AppError('redownload_limit', redownloadLimitMessage(before));
  const source = before.usedThisMonth < perMonth ? 'monthly' : 'granted';
  if (source === 'granted') {
    await tx
      .update(users)
      .set({ extraRedownloads: sql`${users.extraRedownloads} - 1` })
      .where(eq(users.id, caller.id));
  }
  await tx.insert(redownloads).values({
    userId: caller.id,
    downloadId,
    month: kampalaMonth(now),
    source,
    createdAt: now,
    completedAt: completed ? now : null,
  });
  return source === 'monthly'
    ? allowanceFrom(perMonth, before.usedThisMonth + 1, before.extra, now)
    : allowanceFrom(perMonth, before.usedThisMonth, before.extra - 1, now);
}
