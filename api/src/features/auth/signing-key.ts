import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { appSecrets } from '../../db/schema.ts';

/** JWT_SECRET when configured; otherwise one random 256-bit key generated on first start and shared through the database. */
export async function resolveSigningKey(db: Db, configured: string | null): Promise<string> {
  if (configured) return configured;
  await db
    .insert(appSecrets)
    .values({ name: 'jwt_signing_key', value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, 'jwt_signing_key'));
  return row!.value;
}
