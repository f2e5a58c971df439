import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';

/** First half of the two-integer advisory lock key: keeps these locks apart from any other advisory lock. */
const OBJECT_KEY_LOCKS = 0x4f424a; // "OBJ"

/**
 * Holds, until the transaction ends, a lock per storage key: taken by whoever saves a row that references a key
 * and by the cleanup job before it deletes an unreferenced object, so "is it referenced? then delete" and
 * "does it exist? then reference it" never interleave (docs/decisions/0085-orphan-cleanup-and-saving.md).
 * Keys are taken in sorted order, so two savers never deadlock; a hash collision only serialises two keys.
 */
export async function lockObjectKeys(tx: Tx, keys: (string | null | undefined)[]): Promise<void> {
  const distinct = [...new Set(keys.filter((key): key is string => !!key))].sort();
  for (const key of distinct) {
    await tx.execute(sql`select pg_advisory_xact_lock(${OBJECT_KEY_LOCKS}, hashtext(${key}))`);
  }
}
