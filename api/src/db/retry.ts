import type { Db, Tx } from './client.ts';

/** SQLSTATEs of a transaction Postgres aborted for another one's sake: deadlock_detected, serialization_failure. */
const ABORTED_FOR_ANOTHER = new Set(['40P01', '40001']);

/** Postgres gave up this transaction (or lone statement) to let a concurrent one through; running it again is safe. */
export function isConcurrencyAbort(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && ABORTED_FOR_ANOTHER.has(code)) return true;
  }
  return false;
}

/**
 * Runs `work` — one statement outside a transaction, or a whole `db.transaction` — and once more if Postgres aborted
 * it for deadlock or serialization (decision 0114). An aborted transaction left nothing behind, so the second run
 * starts clean; by then the transaction it lost to has finished. A second abort goes to the caller.
 */
export async function retryingAbort<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isConcurrencyAbort(error)) throw error;
    return work();
  }
}

/** `db.transaction(work)`, run once more if Postgres aborted it for deadlock or serialization. */
export function transactionRetrying<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return retryingAbort(() => db.transaction(work));
}
