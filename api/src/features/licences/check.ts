import type { LicenceCheckResponse } from '@filamu/shared';
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { licences } from '../../db/schema.ts';

/**
 * Which of a phone's licences no longer hold (decision 0230): revoked ones with their reason, and ids the server does
 * not know — a deleted person's licences went with their account — as `deleted`. The phone stops playing those.
 */
export async function checkLicences(db: Db, ids: string[]): Promise<LicenceCheckResponse> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return { revoked: [] };
  const rows = await db
    .select({ id: licences.id, revokedReason: licences.revokedReason })
    .from(licences)
    .where(inArray(licences.id, unique));
  const known = new Map(rows.map((row) => [row.id, row.revokedReason]));
  const revoked: LicenceCheckResponse['revoked'] = [];
  for (const id of unique) {
    if (!known.has(id)) revoked.push({ id, reason: 'deleted' });
    else {
      const reason = known.get(id);
      if (reason) revoked.push({ id, reason });
    }
  }
  return { revoked };
}
