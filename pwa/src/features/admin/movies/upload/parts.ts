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
