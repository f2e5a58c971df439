import { setTimeout as sleep } from 'node:timers/promises';
import {
  type DownloadHistoryEntry,
  type DownloadRecord,
  type DownloadStats,
  type ParentalHides,
  ratingsHiddenBy,
} from '@filamu/shared';
import { and, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { DownloadProgressRequest } from '@filamu/shared';
import { downloads, movies } from '../../db/schema.ts';
import type { Database } from '../../db/client.ts';
import { transactionRetrying } from '../../db/retry.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { startIntervalJob } from '../../lib/interval-job.ts';
import { observedPass } from '../metrics/jobs.ts';
import type { Metrics } from '../metrics/registry.ts';
import type { ObjectStorage } from '../storage/storage.ts';
import type { Deliveries } from './deliveries.ts';
import { closeDownload, confirmDownload, finishing, stillOpen } from './completion.ts';
import { type Downloader, kinayugandaProgress, lockDownloader, ownDownloads } from '../movies/entitlement.ts';
import { type DownloadRow, toDownloadRecord, toHistoryEntry } from './records.ts';
import { isClosed } from './redownloads.ts';
import { STALE_AFTER_MS } from './stale.ts';
import { nightShareBetween } from '../night-bundle/accounting.ts';

export interface BookkeepingDeps {
  database: Database;
  clock: Clock;
  storage: ObjectStorage;
  deliveries: Deliveries;
  metrics?: Pick<Metrics, 'downloadBytes'>;
}

const ALREADY_COMPLETE = 'This download is already complete.';
/** The longest stretch the bytes of one progress report are taken to have been fetched in. */
const LAST_REPORT_STRETCH_MAX_MS = 60_000;

/** The caller's own download by id; another person's is simply not found. */
async function ownDownload(deps: BookkeepingDeps, caller: Downloader, id: string): Promise<DownloadRow> {
  const [row] = await deps.database.db
    .select()
    .from(downloads)
    .where(and(eq(downloads.id, id), ownDownloads(caller)));
  if (!row) throw notFound('Download');
  return row;
}

/** The status a report may set: a re-download stays `completed` (the person has the movie) while it runs. */
const reportedStatus = (status: 'downloading' | 'paused' | 'failed'): SQL =>
  sql`case when ${downloads.status} = 'completed' then 'completed' else ${status} end`;

function checkBytes(row: DownloadRow, downloadedBytes: number): void {
  if (downloadedBytes > row.totalBytes) {
    throw new AppError('bad_request', `downloadedBytes cannot exceed the file size (${row.totalBytes} bytes).`);
  }
}

/**
 * Progress only moves forward (greatest of stored and reported) and never past the size; the conditional
 * update leaves a download completed meanwhile untouched. A paused report keeps the offset for later.
 */
export async function reportProgress(
  deps: BookkeepingDeps,
  caller: Downloader,
  id: string,
  input: z.output<typeof DownloadProgressRequest>,
): Promise<DownloadRecord> {
  const row = await ownDownload(deps, caller, id);
  if (isClosed(row)) throw conflict(ALREADY_COMPLETE);
  if (input.totalBytes !== row.totalBytes) {
    throw new AppError('bad_request', `totalBytes must be the file size (${row.totalBytes} bytes).`);
  }
  checkBytes(row, input.downloadedBytes);
  const now = deps.clock.now();
  const share = row.totalBytes > 0 ? input.downloadedBytes / row.totalBytes : 0;
  const countsFetched = deps.storage.driver === 's3' && input.fetchedBytes !== undefined;
  const fetched = sql`greatest(${downloads.fetchedBytes}, least(${input.fetchedBytes ?? 0}::bigint, ${downloads.fetchedBytes} + ${downloads.totalBytes}))`;
  // The bytes since the last report were fetched since its time, or within the last minute after a pause (a phone
  // reports every few seconds while it fetches): their night share is that stretch's (decision 0255).
  const since = new Date(Math.max(row.lastActivityAt.getTime(), now.getTime() - LAST_REPORT_STRETCH_MAX_MS));
  const nightShare = countsFetched ? await nightShareBetween(deps.database.db, since, now) : 0;
  const [updated] = await deps.database.db
    .update(downloads)
    .set({
      downloadedBytes: sql`greatest(${downloads.downloadedBytes}, ${input.downloadedBytes})`,
      // S3 tells the server nothing of what it sent: there the client's progress is the only sign of progress.
      // Progress is passing the best share of any size reached before (decision 0191), as with the local driver.
      ...(deps.storage.driver === 's3'
        ? {
            linksSinceProgress: sql`case when ${share}::float8 > ${downloads.bestDeliveredShare} then 0 else ${downloads.linksSinceProgress} end`,
            bestDeliveredShare: sql`greatest(${downloads.bestDeliveredShare}, ${share}::float8)`,
          }
        : {}),
      // S3 again: what the download cost is the client's running count, never less than known, and one report adds at
      // most one whole file (more cannot have been fetched between two reports a few seconds apart). Decision 0126.
      ...(countsFetched
        ? {
            fetchedBytes: fetched,
            nightBytes: sql`${downloads.nightBytes} + round((${fetched} - ${downloads.fetchedBytes}) * ${nightShare}::float8)::bigint`,
          }
        : {}),
      status: reportedStatus(input.status),
      lastActivityAt: now,
      updatedAt: now,
    })
    .where(and(eq(downloads.id, row.id), stillOpen()))
    .returning();
  if (!updated) throw conflict(ALREADY_COMPLETE);
  const added = updated.fetchedBytes - row.fetchedBytes;
  if (deps.storage.driver === 's3' && added > 0) deps.metrics?.downloadBytes.inc({ size: updated.size }, added);
  return toDownloadRecord(updated);
}

/** How long a completion short of bytes keeps reading the count another replica may still be writing. */
const OTHER_REPLICA_WAIT_MS = 2_000;
const OTHER_REPLICA_POLL_MS = 250;

/**
 * Completion needs every byte of the file; completing twice answers the same record. With the local driver the
 * bytes are the ones `/files` delivered (decision 0110), whatever the client says; with S3, which tells the
 * server nothing, the client's own count.
 */
export async function completeDownload(
  deps: BookkeepingDeps,
  caller: Downloader,
  id: string,
  reportedBytes: number | undefined,
): Promise<DownloadRecord> {
  let row = await ownDownload(deps, caller, id);
  if (isClosed(row)) return confirmed(deps, caller, row);
  if (reportedBytes !== undefined) checkBytes(row, reportedBytes);
  const serverCounts = deps.storage.driver === 'local';
  if (serverCounts && row.deliveredBytes < row.totalBytes) {
    // The last response of this download may still be closing, its bytes not yet written: here (wait for it) or
    // on another replica (look again for a moment), so an honest client racing its own last byte is not refused.
    await deps.deliveries.settled(row.id);
    row = await ownDownload(deps, caller, id);
    for (let waited = 0; row.deliveredBytes < row.totalBytes && waited < OTHER_REPLICA_WAIT_MS;) {
      await sleep(OTHER_REPLICA_POLL_MS);
      waited += OTHER_REPLICA_POLL_MS;
      row = await ownDownload(deps, caller, id);
    }
    if (isClosed(row)) return confirmed(deps, caller, row);
  }
  const received = serverCounts ? row.deliveredBytes : Math.max(row.downloadedBytes, reportedBytes ?? 0);
  if (received !== row.totalBytes) {
    throw conflict(`The download is not complete: ${received} of ${row.totalBytes} bytes received.`);
  }
  const now = deps.clock.now();
  const whole = row;
  const updated = await transactionRetrying(deps.database.db, async (tx) => {
    // The owner first, then the download: the order of grants and of the server's own completion, so a /complete
    // racing the last byte's completion never deadlocks with it.
    const owner = await lockDownloader(tx, caller, now);
    return closeDownload(tx, owner ?? caller, whole, now, { confirmed: true });
  });
  if (updated) return toDownloadRecord(updated);
  // Completed by a concurrent call, perhaps the server's own from the delivered bytes: the phone's word still
  // confirms it (decision 0213), and the stored record is the answer.
  return confirmed(deps, caller, await ownDownload(deps, caller, id));
}

/**
 * `/complete` of a download the server already completed from its delivered bytes: the phone confirms it has the file,
 * so its links end (decision 0213). Answers the stored record either way.
 */
async function confirmed(deps: BookkeepingDeps, caller: Downloader, row: DownloadRow): Promise<DownloadRecord> {
  if (!finishing(row)) return toDownloadRecord(row);
  if (await confirmDownload(deps.database.db, row.id, deps.clock.now())) deps.deliveries.ended(row.id);
  return toDownloadRecord(await ownDownload(deps, caller, row.id));
}

/** A failed download stays resumable; the message is kept for support. */
export async function failDownload(
  deps: BookkeepingDeps,
  caller: Downloader,
  id: string,
  message: string,
): Promise<DownloadRecord> {
  const row = await ownDownload(deps, caller, id);
  if (isClosed(row)) throw conflict(ALREADY_COMPLETE);
  const now = deps.clock.now();
  const [updated] = await deps.database.db
    .update(downloads)
    .set({ status: reportedStatus('failed'), error: message || null, lastActivityAt: now, updatedAt: now })
    .where(and(eq(downloads.id, row.id), stillOpen()))
    .returning();
  if (!updated) throw conflict(ALREADY_COMPLETE);
  return toDownloadRecord(updated);
}

async function downloadOfMovie(deps: BookkeepingDeps, caller: Downloader, movieId: string) {
  const [row] = await deps.database.db
    .select()
    .from(downloads)
    .where(and(ownDownloads(caller), eq(downloads.movieId, movieId)));
  return row ?? null;
}

/** 404 when the caller never started this movie: the client reads that as not_started. */
export async function downloadRecordOfMovie(
  deps: BookkeepingDeps,
  caller: Downloader,
  movieId: string,
): Promise<DownloadRecord> {
  const row = await downloadOfMovie(deps, caller, movieId);
  if (!row) throw notFound('Download');
  return toDownloadRecord(row);
}

export async function hasDownloaded(
  deps: BookkeepingDeps,
  caller: Downloader,
  movieId: string,
): Promise<{ hasDownloaded: boolean }> {
  const row = await downloadOfMovie(deps, caller, movieId);
  return { hasDownloaded: row?.status === 'completed' };
}

/** `hides`: what the parental PIN hides from this session, so the notice can say how many still-needed films it hides. */
export async function kinayugandaStatus(deps: BookkeepingDeps, caller: Downloader, hides: ParentalHides | null = null) {
  const progress = await kinayugandaProgress(deps.database.db, caller, hides ? ratingsHiddenBy(hides) : []);
  // Unlocked earlier in this paid period, English stays unlocked though a movie added since is not downloaded.
  const unlocked = caller.englishKept || progress.completed >= progress.required;
  return { hasDownloadedAllKinayuganda: unlocked, englishKept: caller.englishKept, ...progress };
}

async function historyRows(
  deps: BookkeepingDeps,
  caller: Downloader,
  completedOnly: boolean,
): Promise<DownloadHistoryEntry[]> {
  const rows = await deps.database.db
    .select({ download: downloads, title: movies.title, category: movies.category })
    .from(downloads)
    .innerJoin(movies, eq(movies.id, downloads.movieId))
    .where(and(ownDownloads(caller), completedOnly ? eq(downloads.status, 'completed') : undefined))
    .orderBy(desc(sql`coalesce(${downloads.completedAt}, ${downloads.lastActivityAt})`), desc(downloads.id));
  return rows.map((r) => toHistoryEntry(r.download, r));
}

/** Every download of the caller, finished or not, most recent first (the profile's Downloads tab). */
export async function downloadHistory(deps: BookkeepingDeps, caller: Downloader) {
  return { downloads: await historyRows(deps, caller, false) };
}

/** The dashboard card: completed downloads, their bytes and the last one's date. */
export async function downloadStats(deps: BookkeepingDeps, caller: Downloader): Promise<DownloadStats> {
  const completed = await historyRows(deps, caller, true);
  return {
    summary: {
      totalMoviesDownloaded: completed.length,
      totalStorageUsed: completed.reduce((sum, d) => sum + d.movieSize, 0),
      lastDownloadDate: completed[0]?.lastDownloadDate ?? null,
    },
    detailedDownloads: completed,
  };
}

/**
 * Downloads the server has not heard from for an hour become paused — resumable, offset kept (a
 * Background Fetch or a phone offline for hours cannot report). One UPDATE, so any number of servers
 * may run it at once.
 */
export async function pauseStaleDownloads(deps: BookkeepingDeps): Promise<number> {
  const now = deps.clock.now();
  const paused = await deps.database.db
    .update(downloads)
    .set({ status: 'paused', updatedAt: now })
    .where(
      and(
        inArray(downloads.status, ['starting', 'downloading']),
        lt(downloads.lastActivityAt, new Date(now.getTime() - STALE_AFTER_MS)),
      ),
    )
    .returning({ id: downloads.id });
  return paused.length;
}

/** The stale-download sweep on a timer (STALE_DOWNLOAD_SWEEP_INTERVAL_MS); returns the stop function. */
export function startStaleDownloadSweep(
  deps: BookkeepingDeps & { logger: Logger; metrics: Metrics },
  intervalMs: number,
): () => Promise<void> {
  const sweep = async () => {
    const paused = await pauseStaleDownloads(deps);
    if (paused > 0) deps.logger.info({ paused }, 'stale downloads paused');
  };
  const onError = (error: unknown) => deps.logger.error({ err: error }, 'stale download sweep failed');
  return startIntervalJob(observedPass(deps, 'stale_sweep', sweep, onError), intervalMs, onError);
}
