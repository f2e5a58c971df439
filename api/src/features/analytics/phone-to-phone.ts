import { DEFAULT_DATA_PRICE_PER_GB_UGX, dataCostUgx, type PhoneToPhoneFigures } from '@filamu/shared';
import { gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { downloads, operatorSettings } from '../../db/schema.ts';

/**
 * Films that came to a phone from another phone since `since` (issue 19/22 §5): how many, how many from agents'
 * phones, and the data they saved their people — what was not fetched of each — in bytes and in UGX at the operator's
 * price per GB (the one the size dialog quotes).
 */
export async function phoneToPhoneFigures(db: Db, since: Date): Promise<PhoneToPhoneFigures> {
  const [row] = await db
    .select({
      films: sql<number>`count(*)`,
      fromAgents: sql<number>`count(*) filter (where ${downloads.receivedFromAgentId} is not null)`,
      savedBytes: sql<string>`coalesce(sum(greatest(${downloads.totalBytes} - ${downloads.fetchedBytes}, 0)), 0)`,
      price: sql<number | null>`(select ${operatorSettings.dataPricePerGbUgx} from ${operatorSettings} limit 1)`,
    })
    .from(downloads)
    .where(gte(downloads.receivedAt, since));
  const savedBytes = Number(row?.savedBytes ?? 0);
  const price = row?.price ?? DEFAULT_DATA_PRICE_PER_GB_UGX;
  return {
    films: Number(row?.films ?? 0),
    fromAgents: Number(row?.fromAgents ?? 0),
    savedBytes,
    savedUgx: dataCostUgx(savedBytes, price),
  };
}
