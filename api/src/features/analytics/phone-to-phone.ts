import { DEFAULT_DATA_PRICE_PER_GB_UGX, dataCostUgx, type PhoneToPhoneFigures } from '@filamu/shared';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { downloads, operatorSettings, payments, receivedFilmsWaiting } from '../../db/schema.ts';

/**
 * Films that came to a phone from another phone since `since` (issue 19/22 §5): how many, how many from agents'
 * phones, and the data they saved their people — what was not fetched of each — in bytes and in UGX at the operator's
 * price per GB (the one the size dialog quotes); and the plans bought after a film waited on a phone for one.
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
  // The first plan each waiting film was followed by, when it was bought in the period.
  const [plans] = await db
    .select({ count: sql<number>`count(*)`, ugx: sql<string>`coalesce(sum(${payments.amountUgx}), 0)` })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'completed'),
        gte(payments.completedAt, since),
        sql`exists (select 1 from ${receivedFilmsWaiting} w
          where w.user_id = ${payments.userId} and w.waiting_since < ${payments.completedAt}
            and not exists (select 1 from ${payments} earlier
              where earlier.user_id = ${payments.userId} and earlier.status = 'completed'
                and earlier.completed_at > w.waiting_since and earlier.completed_at < ${payments.completedAt}))`,
      ),
    );
  const savedBytes = Number(row?.savedBytes ?? 0);
  const price = row?.price ?? DEFAULT_DATA_PRICE_PER_GB_UGX;
  return {
    films: Number(row?.films ?? 0),
    fromAgents: Number(row?.fromAgents ?? 0),
    savedBytes,
    savedUgx: dataCostUgx(savedBytes, price),
    plansAfter: Number(plans?.count ?? 0),
    plansAfterUgx: Number(plans?.ugx ?? 0),
  };
}
