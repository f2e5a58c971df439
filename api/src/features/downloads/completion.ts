import { and, eq, isNotNull, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.ts';
import { transactionRetrying } from '../../db/retry.ts';
import { agents, downloads, users } from '../../db/schema.ts';
import { type Downloader, downloaderFromRow, recordEnglishUnlock } from '../movies/entitlement.ts';
import type { DownloadRow } from './records.ts';
import { finishRedownload } from './redownloads.ts';

/**
 * Closing a download, whoever notices it is done: the client's `/complete`, a grant finding the file delivered, or
 * `/files` itself delivering its last missing byte (decision 0191). The effects are the same every time: completed
 * (a re-download keeps its first date), the re-download closed, and English unlocked when it was the last
 * Kinayuganda movie (decision 0177).
 */

/** Still open to progress and completion: unfinished, or a completed movie being downloaded again. */
export const stillOpen = (): SQL => or(ne(downloads.status, 'completed'), isNotNull(downloads.redownloadStartedAt))!;

/**
 * Completed by the server from its delivered bytes, not yet confirmed by the phone (decision 0213): the phone may still
 * fetch, for the same file and within the copies cap, bytes it lost on the way (a drop after the server wrote them).
 */
export const finishing = (row: Pick<DownloadRow, 'status' | 'redownloadStartedAt' | 'confirmedAt'>): boolean =>
  row.status === 'completed' && row.redownloadStartedAt === null && row.confirmedAt === null;

/** The phone confirms it has the whole file of a download the server completed already: its links end now. */
export async function confirmDownload(tx: Tx | Database['db'], downloadId: string, now: Date): Promise<boolean> {
  const done = await tx
    .update(downloads)
    .set({ confirmedAt: now, updatedAt: now })
    .where(and(eq(downloads.id, downloadId), eq(downloads.status, 'completed'), isNull(downloads.confirmedAt)))
    .returning({ id: downloads.id });
  return done.length > 0;
}

/** Whether `/files` has handed out every byte of the download's file (local driver; an empty file never counts). */
export const deliveredInFull = (row: Pick<DownloadRow, 'deliveredBytes' | 'totalBytes'>): boolean =>
  row.totalBytes > 0 && row.deliveredBytes >= row.totalBytes;

/**
 * Closes the open download `row` of `owner` (a conditional update: a concurrent close finds nothing to do and gets
 * undefined). Runs in the caller's transaction, which must hold the owner's row lock first (the grant's lock order).
 */
export async function closeDownload(
  tx: Tx,
  owner: Downloader | null,
  row: Pick<DownloadRow, 'id' | 'totalBytes' | 'redownloadStartedAt'>,
  now: Date,
  { confirmed = false }: { confirmed?: boolean } = {},
): Promise<DownloadRow | undefined> {
  const redownload = row.redownloadStartedAt !== null;
  const [done] = await tx
    .update(downloads)
    .set({
      status: 'completed',
      downloadedBytes: row.totalBytes,
      // A re-download keeps the first completion's date: the movie was downloaded then, once, for every count.
      ...(redownload ? { redownloadStartedAt: null } : { completedAt: now }),
      // The phone's own word that it has the file (decision 0213); the server's count alone leaves it open to finish.
      confirmedAt: confirmed ? now : null,
      lastActivityAt: now,
      updatedAt: now,
      error: null,
    })
    .where(and(eq(downloads.id, row.id), stillOpen()))
    .returning();
  if (done && redownload) await finishRedownload(tx, row.id, now);
  // The last Kinayuganda movie of the period unlocks English for good (for this period: decision 0177).
  if (done && owner) await recordEnglishUnlock(tx, owner, now);
  return done;
}

/** Locks the download's owner (user or agent row, as a grant does) and reads them afresh; null when gone. */
async function lockOwner(tx: Tx, row: { userId: string | null; agentId: string | null }, now: Date) {
  if (row.userId) {
    const [user] = await tx.select().from(users).where(eq(users.id, row.userId)).for('update');
    return user ? downloaderFromRow({ kind: 'user', user }, now) : null;
  }
  const [agent] = await tx.select().from(agents).where(eq(agents.id, row.agentId!)).for('update');
  return agent ? downloaderFromRow({ kind: 'agent', agent }, now) : null;
}

/**
 * `/files` delivered the last missing byte of the download: complete it now, without waiting for a `/complete` the
 * client may never send. The owner is locked before the download (the grant's order, so the two never deadlock),
 * and the download is read again under its lock: only a download still open and still delivered in full closes.
 * Returns whether this call closed it.
 */
export async function completeDelivered(database: Database, downloadId: string, now: Date): Promise<boolean> {
  const [owner] = await database.db
    .select({ userId: downloads.userId, agentId: downloads.agentId })
    .from(downloads)
    .where(eq(downloads.id, downloadId));
  if (!owner) return false;
  return transactionRetrying(database.db, async (tx) => {
    const downloader = await lockOwner(tx, owner, now);
    const [row] = await tx.select().from(downloads).where(eq(downloads.id, downloadId)).for('update');
    if (!row || !deliveredInFull(row)) return false;
    return (await closeDownload(tx, downloader, row, now)) !== undefined;
  });
}
