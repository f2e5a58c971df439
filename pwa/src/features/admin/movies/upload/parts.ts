/** Pure helpers of the part uploader: slicing, what is left, back-off, speed, and "is this the same file". */

export interface FinishedPart {
  partNumber: number;
  etag: string;
}

/** Byte range [start, end) of part `partNumber` (1-based). */
export function partRange(partNumber: number, partSize: number, fileSize: number): { start: number; end: number } {
  const start = (partNumber - 1) * partSize;
  return { start, end: Math.min(fileSize, start + partSize) };
}

/** Part numbers still to send, ascending. */
export function remainingParts(partCount: number, finished: FinishedPart[]): number[] {
  const done = new Set(finished.map((part) => part.partNumber));
  return Array.from({ length: partCount }, (_, i) => i + 1).filter((n) => !done.has(n));
}

/** Bytes already stored by the finished parts. */
export function finishedBytes(finished: FinishedPart[], partSize: number, fileSize: number): number {
  return finished.reduce((sum, part) => {
    const { start, end } = partRange(part.partNumber, partSize, fileSize);
    return sum + (end - start);
  }, 0);
}

/** Wait before retry `attempt` (1-based): 1 s, 2 s, 4 s… capped at 30 s, with ±20 % jitter so parts spread out. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1000 * 2 ** (attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export interface FileIdentity {
  name: string;
  size: number;
  lastModified: number;
}

export function identityOf(file: File): FileIdentity {
  return { name: file.name, size: file.size, lastModified: file.lastModified };
}

/** The file picked again after a reload must be the one the upload started with. */
export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;
}

/** Bytes per second over a sliding window of samples, so one stalled part does not read as zero. */
export class SpeedMeter {
  private samples: { at: number; bytes: number }[] = [];

  constructor(private readonly windowMs = 5000) {}

  /** `bytes` is the running total sent; returns the current speed. */
  sample(at: number, bytes: number): number {
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - this.samples[0]!.at > this.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const elapsed = at - first.at;
    return elapsed > 0 ? Math.max(0, ((bytes - first.bytes) * 1000) / elapsed) : 0;
  }
}

/** Runs `worker` over `items` with at most `limit` at once; the first failure stops new starts and is thrown. */
export async function pool<T>(items: T[], limit: number, worker: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  let failure: { error: unknown } | null = null;
  const lanes = Array.from({ length: Math.min(limit, queue.length) }, async () => {
    while (queue.length > 0 && !failure) {
      const item = queue.shift()!;
      try {
        await worker(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  });
  await Promise.all(lanes);
  if (failure) throw (failure as { error: unknown }).error;
}
