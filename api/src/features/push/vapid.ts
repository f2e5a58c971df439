import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { appSecrets } from '../../db/schema.ts';
import { generateVapidKeys, type VapidKeys } from './gateway.ts';

const SECRET_NAME = 'vapid_keys';

/**
 * The configured VAPID key pair, or one generated on first start and kept in `app_secrets` (like the JWT signing
 * key, decision 0010): every replica signs with the same key, and subscriptions made against it keep working after
 * a restart. Run under the start-up lock.
 */
export async function resolveVapidKeys(db: Db, configured: VapidKeys | null): Promise<VapidKeys> {
  if (configured) return configured;
  await db
    .insert(appSecrets)
    .values({ name: SECRET_NAME, value: JSON.stringify(generateVapidKeys()) })
    .onConflictDoNothing();
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, SECRET_NAME));
  return JSON.parse(row!.value) as VapidKeys;
}
