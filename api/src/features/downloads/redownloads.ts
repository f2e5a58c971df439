import { formatDayMonth, kampalaMonth, nextKampalaMonthStart, type RedownloadAllowance } from '@filamu/shared';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { downloads, redownloads, users } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../http/errors.ts';
import type { DownloadRow } from './records.ts';

/**
 * Re-downloads (decision 0121): a movie completed once stays the person's for every rule, and a file lost with a
 * phone can be fetched again a few times a month. Each one is a row in `redownloads` (counted per Kampala calendar
 * month, apart from first downloads) and reopens the person's one download row of the movie.
 */

const REDOWNLOADS_FOR_SUBSCRIBERS = 'Re-downloads are for subscriber accounts. Ask an admin for help.';

/** Extra re-downloads an admin may leave unused on one person at once (decision 0122). */
export const MAX_EXTRA_REDOWNLOADS = 10;

async function usedThisMonth(exec: Executor, userId: string, now: Date): Promise<number> {
  const [row] = await exec
    .select({ n: count() })
    .from(redownloads)
    .where(
      and(eq(redownloads.userId, userId), eq(redownloads.month, kampalaMonth(now)), eq(redownloads.source, 'monthly')),
    );
  return Number(row?.n ?? 0);
}

function allowanceFrom(perMonth: number, used: number, extra: number, now: Date): RedownloadAllowance {
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
function redownloadLimitMessage(allowance: RedownloadAllowance): string {
  const renews = formatDayMonth(allowance.renewsAt);
  const used =
    allowance.perMonth === 0
      ? 'Downloading a movie again needs a re-download from support.'
      : `You have used all ${allowance.perMonth} re-downloads for this month.`;
  return `${used} They renew on ${renews}. If you need this movie sooner, contact support: they can grant one.`;
}

/**
 * Takes one re-download for a completed download and reopens it: its links work again and its delivered bytes count
 * from zero, while it stays `completed` (English stays unlocked, every count stays one download). Runs inside the
 * grant's transaction, under the person's row lock, so concurrent requests take one: the next one finds the download
 * reopened and only resumes it. The month's allowance goes first, then an extra one an admin granted.
 */
export async function takeRedownload(
  tx: Tx,
  caller: { kind: 'user' | 'agent'; id: string },
  download: Pick<DownloadRow, 'id'>,
  {
    perMonth,
    now,
    links,
    file,
  }: { perMonth: number; now: Date; links: number; file: Pick<DownloadRow, 'size' | 'totalBytes'> },
): Promise<{ row: DownloadRow; allowance: RedownloadAllowance }> {
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
    downloadId: download.id,
    month: kampalaMonth(now),
    source,
    createdAt: now,
  });
  const [row] = await tx
    .update(downloads)
    .set({
      redownloadStartedAt: now,
      // Any ready size (decision 0126): the re-download fetches that file from its first byte.
      size: file.size,
      totalBytes: file.totalBytes,
      deliveredRanges: [],
      deliveredBytes: 0,
      downloadedBytes: 0,
      linksSinceProgress: links,
      // A new grant: its progress mark and its copies start again (decision 0191).
      bestDeliveredShare: 0,
      copiesSent: 0,
      error: null,
      lastActivityAt: now,
      updatedAt: now,
    })
    .where(eq(downloads.id, download.id))
    .returning();
  const after =
    source === 'monthly'
      ? allowanceFrom(perMonth, before.usedThisMonth + 1, before.extra, now)
      : allowanceFrom(perMonth, before.usedThisMonth, before.extra - 1, now);
  return { row: row!, allowance: after };
}

/** Closes a reopened download's re-download when every byte arrived again (inside the completion's transaction). */
export async function finishRedownload(tx: Tx, downloadId: string, now: Date): Promise<void> {
  await tx
    .update(redownloads)
    .set({ completedAt: now })
    .where(and(eq(redownloads.downloadId, downloadId), isNull(redownloads.completedAt)));
}

/** Whether the download is finished and closed: no link, no progress, no second completion. */
export const isClosed = (row: Pick<DownloadRow, 'status' | 'redownloadStartedAt'>): boolean =>
  row.status === 'completed' && row.redownloadStartedAt === null;
