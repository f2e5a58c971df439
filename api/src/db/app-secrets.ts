import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from './client.ts';
import { appSecrets } from './schema.ts';

/**
 * The configured secret when there is one; otherwise a random 256-bit key generated on first start and
 * kept in `app_secrets` under `name`, so every process sharing the database agrees on it.
 */
export async function resolveSecret(db: Db, name: string, configured: string | null): Promise<string> {
  if (configured) return configured;
  await db
    .insert(appSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, name));
  return row!.value;
}
