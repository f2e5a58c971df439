import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../../db/client.ts';
import { downloads } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { DeliveryTrack } from '../storage/storage.ts';
import { coveredBytes, mergeRanges, type Ranges, rangesOf } from './delivered-ranges.ts';

/**
 * Counts the bytes `/files` actually handed out under each download's links (local driver), so completion is
 * decided by the server and not by the client's word. A response reports as it goes; what it delivered is written
 * coalesced: when the response reaches its last byte, when it ends early, and every FLUSH_EVERY_BYTES on the way
 * (a slow 2 GB response must not lose hours of progress to a restart), never per chunk. At most one write per
 * download is in flight; intervals arriving meanwhile are merged into the next.
 */

/** A write per 16 MiB sent: ~128 for a 2 GB movie, each one row update. */
export const FLUSH_EVERY_BYTES = 16 * 1024 * 1024;
/** How long a completion short of bytes waits for responses of the same download still closing in this process. */
const SETTLE_WAIT_MS = 2_000;

interface Pending {
  /** Intervals not yet written. */
  ranges: Ranges;
  writing: Promise<void> | null;
  /** Responses under this download still open in this process. */
  open: number;
  idle: (() => void)[];
}

export class Deliveries {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly deps: { database: Database; clock: Clock; logger: Logger }) {}

  /** One response's bytes `start`…`end` (inclusive) under download `downloadId`. */
  track(downloadId: string, start: number, end: number): DeliveryTrack {
    const entry = this.entryOf(downloadId);
    entry.open += 1;
    let written = start;
    let lastSeen = start;
    let closed = false;
    const push = (sentEnd: number) => {
      if (sentEnd <= written) return;
      this.add(downloadId, [start, sentEnd]);
      written = sentEnd;
    };
    return {
      reached: (sentEnd) => {
        // After the end (a write callback late after a cut) every report is pushed at once.
        lastSeen = sentEnd;
        if (closed || sentEnd > end || sentEnd - written >= FLUSH_EVERY_BYTES) push(sentEnd);
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
      entry = { ranges: [], writing: null, open: 0, idle: [] };
      this.pending.set(downloadId, entry);
    }
    return entry;
  }

  private add(downloadId: string, range: [number, number]): void {
    const entry = this.entryOf(downloadId);
    entry.ranges = mergeRanges(entry.ranges, [range], Number.MAX_SAFE_INTEGER);
    if (!entry.writing) entry.writing = this.writeAll(downloadId, entry);
  }

  private async writeAll(downloadId: string, entry: Pending): Promise<void> {
    while (entry.ranges.length > 0) {
      const ranges = entry.ranges;
      entry.ranges = [];
      try {
        await this.write(downloadId, ranges);
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
    if (!entry.writing && entry.ranges.length === 0) this.pending.delete(downloadId);
  }

  /** Merges under the row's lock, so responses of one download on several replicas never lose each other's bytes. */
  private async write(downloadId: string, added: Ranges): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.database.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ ranges: downloads.deliveredRanges, bytes: downloads.deliveredBytes, total: downloads.totalBytes })
        .from(downloads)
        .where(eq(downloads.id, downloadId))
        .for('update');
      if (!row) return;
      const ranges = mergeRanges(rangesOf(row.ranges), added, row.total);
      const bytes = coveredBytes(ranges);
      if (bytes <= row.bytes) return;
      await tx
        .update(downloads)
        // Bytes arriving are activity: a Background Fetch cannot report, and must not be swept as stale.
        .set({ deliveredRanges: ranges, deliveredBytes: bytes, linksSinceProgress: 0, lastActivityAt: now })
        .where(eq(downloads.id, downloadId));
    });
  }
}
