import type { RedownloadAllowance } from '@filamu/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { downloads, redownloads } from '../../db/schema.ts';
import { redownloadAllowance, spendRedownload } from '../movies/redownload-allowance.ts';
import type { DownloadRow } from './records.ts';

/**
 * Re-downloads (decision 0121): a movie completed once stays the person's for every rule, and a file lost with a
 * phone can be fetched again a few times a month. Each one is a row in `redownloads` (counted per Kampala calendar
 * month, apart from first downloads) and reopens the person's one download row of the movie.
 */

/** Extra re-downloads an admin may leave unused on one person at once (decision 0122). */
export const MAX_EXTRA_REDOWNLOADS = 10;

/** The allowance's accounting lives with the movie, so a licence moved back to a phone can spend one too. */
export { redownloadAllowance };

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
  const allowance = await spendRedownload(tx, caller, download.id, { perMonth, now });
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
  return { row: row!, allowance };
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
