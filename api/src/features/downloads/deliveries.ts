import type { DownloadSize } from '@filamu/shared';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import { downloads, movieRenditions, movies } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Metrics } from '../metrics/registry.ts';
import type { DeliveryTrack } from '../storage/storage.ts';
import { coveredBytes, mergeRanges, type Ranges, rangesOf } from './delivered-ranges.ts';
import { completeDelivered, finishing } from './completion.ts';
import { downloadFileKey } from '../movies/files.ts';
import { MAX_COPIES_PER_GRANT } from './grant-caps.ts';
import { type FetchStretch, NightBoundaries, nightBytesOfStretches } from '../night-bundle/accounting.ts';
import { isClosed } from './redownloads.ts';

/**
 * Counts the bytes `/files` actually handed out under each download's links (local driver), so completion is
 * decided by the server and not by the client's word. A response reports as it goes; what it delivered is written
 * coalesced: when the response reaches its last byte, when it ends early, and every FLUSH_EVERY_BYTES on the way
 * (a slow 2 GB response must not lose hours of progress to a restart), never per chunk. At most one write per
 * download is in flight; intervals arriving meanwhile are merged into the next.
 *
 * Two counts per download (decision 0126): `delivered` (unique intervals of the download's file, what completion
 * needs) and `fetched` (every byte sent, re-fetches after drops included: what the download cost in data). Bytes of
 * another file than the download's (a response of the size it had before a change, still running) are fetched,
 * never delivered: resume never mixes two files. Of `fetched`, the bytes sent while a night window was open count as
 * night bytes too (decision 0255): each write's bytes are stamped with the stretch of time they were sent in.
 */

/** A write per 16 MiB sent: ~128 for a 2 GB movie, each one row update. */
export const FLUSH_EVERY_BYTES = 16 * 1024 * 1024;
/** How long a completion short of bytes waits for responses of the same download still closing in this process. */
const SETTLE_WAIT_MS = 2_000;

interface Pending {
  /** Intervals not yet written, per storage key served. */
  ranges: Map<string, Ranges>;
  /** Bytes sent and not yet written, per storage key served. */
  fetched: Map<string, number>;
  /** The same bytes with the stretch of time each lot was sent in, for the night count. */
  stretches: FetchStretch[];
  writing: Promise<void> | null;
  /** Responses under this download still open in this process. */
  open: number;
  idle: (() => void)[];
}

export class Deliveries {
  private readonly pending = new Map<string, Pending>();
  private readonly night: NightBoundaries;

  constructor(
    private readonly deps: {
      database: Database;
      clock: Clock;
      logger: Logger;
      metrics?: Pick<Metrics, 'downloadBytes'>;
      /** The download was completed or spent its copies here: its links' cached verdicts must go. */
      onEnded?: (downloadId: string) => void;
    },
  ) {
    this.night = new NightBoundaries(deps);
  }

  /** One response's bytes `start`…`end` (inclusive) of the object `key` under download `downloadId`. */
  track(downloadId: string, start: number, end: number, key: string): DeliveryTrack {
    const entry = this.entryOf(downloadId);
    entry.open += 1;
    let written = start;
    let writtenAt = this.deps.clock.now();
    let lastSeen = start;
    let lastSeenAt = writtenAt;
    let closed = false;
    let nightTurns = this.night.boundaryAfter(writtenAt);
    const push = (sentEnd: number, at = this.deps.clock.now()) => {
      if (sentEnd <= written) return;
      this.add(downloadId, key, [start, sentEnd], { bytes: sentEnd - written, from: writtenAt, to: at });
      written = sentEnd;
      writtenAt = at;
    };
    return {
      reached: (sentEnd) => {
        const now = this.deps.clock.now();
        nightTurns ??= this.night.boundaryAfter(writtenAt);
        if (nightTurns && now.getTime() >= nightTurns.getTime()) {
          // A window opened or closed since the last report: what was sent until then is counted on its side of it.
          if (lastSeen > written) push(lastSeen, lastSeenAt);
          else writtenAt = lastSeenAt;
          nightTurns = this.night.boundaryAfter(now);
        }
        // After the end (a write callback late after a cut) every report is pushed at once.
        lastSeen = sentEnd;
        lastSeenAt = now;
        if (closed || sentEnd > end || sentEnd - written >= FLUSH_EVERY_BYTES) push(sentEnd, now);
      },
      closed: () => {
        if (closed) return;
        closed = true;
        push(lastSeen);
        entry.open -= 1;
        this.wakeIfIdle(downloadId, entry);
      },
    };
  }

  /** The download's links end now in this process (the phone confirmed it has the file, decision 0213). */
  ended(downloadId: string): void {
    this.deps.onEnded?.(downloadId);
  }

  /**
   * Waits until what this process delivered under the download is written: writes in flight, and responses still
   * closing (a client that read the last byte may ask to complete before its response has quite ended here).
   */
  async settled(downloadId: string): Promise<void> {
    const entry = this.pending.get(downloadId);
    if (!entry) return;
    if (entry.open > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SETTLE_WAIT_MS);
        entry.idle.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    while (entry.writing) await entry.writing;
  }

  private entryOf(downloadId: string): Pending {
    let entry = this.pending.get(downloadId);
    if (!entry) {
      entry = { ranges: new Map(), fetched: new Map(), stretches: [], writing: null, open: 0, idle: [] };
      this.pending.set(downloadId, entry);
    }
    return entry;
  }

  private add(downloadId: string, key: string, range: [number, number], stretch: FetchStretch): void {
    const entry = this.entryOf(downloadId);
    entry.ranges.set(key, mergeRanges(entry.ranges.get(key) ?? [], [range], Number.MAX_SAFE_INTEGER));
    entry.fetched.set(key, (entry.fetched.get(key) ?? 0) + stretch.bytes);
    entry.stretches.push(stretch);
    if (!entry.writing) entry.writing = this.writeAll(downloadId, entry);
  }

  private async writeAll(downloadId: string, entry: Pending): Promise<void> {
    while (entry.ranges.size > 0) {
      const { ranges, fetched, stretches } = entry;
      entry.ranges = new Map();
      entry.fetched = new Map();
      entry.stretches = [];
      try {
        await this.write(downloadId, ranges, fetched, stretches);
      } catch (error) {
        // Lost bytes only ever under-count: the client fetches them again (a resume), it is never over-credited.
        this.deps.logger.error({ err: error, downloadId }, 'recording delivered bytes failed');
      }
    }
    entry.writing = null;
    this.wakeIfIdle(downloadId, entry);
  }

  private wakeIfIdle(downloadId: string, entry: Pending): void {
    if (entry.open > 0) return;
    for (const wake of entry.idle.splice(0)) wake();
    if (!entry.writing && entry.ranges.size === 0) this.pending.delete(downloadId);
  }

  /**
   * Merges under the row's lock, so responses of one download on several replicas never lose each other's bytes.
   * Only the intervals of the download's own file count as delivered; every byte sent counts as fetched, and as a
   * share of a copy against the grant's cap. When the own file is covered the download completes itself
   * (decision 0191): a client that never calls `/complete` still had one delivery.
   */
  private async write(
    downloadId: string,
    added: Map<string, Ranges>,
    fetched: Map<string, number>,
    stretches: FetchStretch[],
  ): Promise<void> {
    const now = this.deps.clock.now();
    const sent = [...fetched.values()].reduce((sum, n) => sum + n, 0);
    const night = nightBytesOfStretches(await this.night.schedule(), stretches);
    const counted = await this.deps.database.db.transaction(async (tx) => {
      const [row] = await tx
        .select({
          ranges: downloads.deliveredRanges,
          bytes: downloads.deliveredBytes,
          total: downloads.totalBytes,
          size: downloads.size,
          key: downloadFileKey(),
          status: downloads.status,
          redownloadStartedAt: downloads.redownloadStartedAt,
          confirmedAt: downloads.confirmedAt,
          bestShare: downloads.bestDeliveredShare,
          copiesSent: downloads.copiesSent,
        })
        .from(downloads)
        .innerJoin(movies, eq(movies.id, downloads.movieId))
        .where(eq(downloads.id, downloadId))
        .for('update', { of: downloads });
      if (!row) return null;
      const own = row.key === null ? undefined : added.get(row.key);
      const ranges = own ? mergeRanges(rangesOf(row.ranges), own, row.total) : [];
      const bytes = coveredBytes(ranges);
      const grew = own !== undefined && bytes > row.bytes;
      // Progress is passing the best share of any size reached before: a size switch restarts the file from zero
      // but not the link count (decisions 0111, 0191).
      const share = row.total > 0 ? bytes / row.total : 0;
      const progressed = grew && share > row.bestShare;
      // Bytes of another size (a response from before a switch) are counted against this file's size: they are
      // seconds of a response the link check is about to cut.
      const copies = row.copiesSent + sent / Math.max(row.total, 1);
      await tx
        .update(downloads)
        .set({
          fetchedBytes: sql`${downloads.fetchedBytes} + ${sent}`,
          nightBytes: sql`${downloads.nightBytes} + ${night}`,
          copiesSent: sql`${downloads.copiesSent} + ${sent / Math.max(row.total, 1)}::float8`,
          // Bytes arriving are activity: a Background Fetch cannot report, and must not be swept as stale. A re-fetch
          // of bytes already delivered is not progress (decision 0111 counts links without progress).
          ...(grew ? { deliveredRanges: ranges, deliveredBytes: bytes, lastActivityAt: now } : {}),
          ...(progressed ? { linksSinceProgress: 0, bestDeliveredShare: share } : {}),
        })
        .where(eq(downloads.id, downloadId));
      const open = !isClosed(row) || finishing(row);
      return {
        key: row.key,
        size: row.size,
        delivered: open && grew && row.total > 0 && bytes >= row.total,
        spent: open && row.copiesSent < MAX_COPIES_PER_GRANT && copies >= MAX_COPIES_PER_GRANT,
      };
    });
    if (!counted) return;
    if (counted.delivered) await completeDelivered(this.deps.database, downloadId, now);
    // Its links end here, not a verdict's lifetime later (other replicas see it at their next check).
    if (counted.delivered || counted.spent) this.deps.onEnded?.(downloadId);
    await this.countBySize(fetched, counted);
  }

  /** The bytes-per-size metric: the download's size for its own file; another file's size looked up (rare). */
  private async countBySize(fetched: Map<string, number>, own: { key: string | null; size: DownloadSize }) {
    const metric = this.deps.metrics?.downloadBytes;
    if (!metric) return;
    const others = [...fetched.keys()].filter((key) => key !== own.key);
    const kinds =
      others.length === 0
        ? []
        : await this.deps.database.db
            .select({ key: movieRenditions.storageKey, kind: movieRenditions.kind })
            .from(movieRenditions)
            .where(inArray(movieRenditions.storageKey, others));
    const sizeOf = new Map<string, DownloadSize>(kinds.map((k) => [k.key!, k.kind]));
    for (const [key, bytes] of fetched) {
      if (bytes > 0) metric.inc({ size: key === own.key ? own.size : (sizeOf.get(key) ?? 'original') }, bytes);
    }
  }
}
