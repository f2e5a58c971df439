import type { Db } from '../../db/client.ts';
import { nightSavingsUgx } from '../night-bundle/accounting.ts';

/**
 * The night bundle's figures over the period (issue 21/22 §5): the bytes served inside a night window, their share of
 * every byte served, and what they saved at the day and night prices in force now. Counted like `servedBySize`: a
 * download's bytes are taken whole when it was active in the period.
 */
export async function nightFigures(db: Db, bySize: { fetched: unknown; night: unknown }[], now: Date) {
  const fetched = bySize.reduce((sum, row) => sum + Number(row.fetched ?? 0), 0);
  const nightBytes = bySize.reduce((sum, row) => sum + Number(row.night ?? 0), 0);
  return {
    nightBytes,
    nightShare: fetched === 0 ? 0 : nightBytes / fetched,
    nightSavedUgx: await nightSavingsUgx(db, nightBytes, now),
  };
}
