import type { DataPriceSetting } from '@filamu/shared';
import { DEFAULT_DATA_PRICE_PER_GB_UGX } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import { operatorSettings } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Database } from '../../db/client.ts';

interface SettingsDeps {
  database: Database;
  clock: Clock;
}

/** The one settings row (migration 0011 inserts it; a database restored without it still answers the default). */
const SETTINGS_ROW = 1;

/** The price of 1 GB of mobile data every size's cost is estimated from (decision 0125). */
export async function dataPrice(deps: SettingsDeps): Promise<DataPriceSetting> {
  const [row] = await deps.database.db
    .select({ price: operatorSettings.dataPricePerGbUgx })
    .from(operatorSettings)
    .where(eq(operatorSettings.id, SETTINGS_ROW));
  return { dataPricePerGbUgx: row?.price ?? DEFAULT_DATA_PRICE_PER_GB_UGX };
}

/** Sets the price (bounds checked by the contract and again by the table's check). */
export async function setDataPrice(deps: SettingsDeps, input: DataPriceSetting): Promise<DataPriceSetting> {
  const now = deps.clock.now();
  const [row] = await deps.database.db
    .insert(operatorSettings)
    .values({ id: SETTINGS_ROW, dataPricePerGbUgx: input.dataPricePerGbUgx, updatedAt: now })
    .onConflictDoUpdate({
      target: operatorSettings.id,
      set: { dataPricePerGbUgx: input.dataPricePerGbUgx, updatedAt: now },
    })
    .returning({ price: operatorSettings.dataPricePerGbUgx });
  return { dataPricePerGbUgx: row!.price };
}
