import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { sealedKeyPhones } from '../../db/schema.ts';

/**
 * Which phone keys of which account were given a device secret (decision 0249). The USSD service knows the caller's
 * account and three digits of a key id; this table says which phone they name, and what a licence for it needs.
 */

export interface SealedKeyOwner {
  kind: 'user' | 'agent';
  id: string;
}

export interface SealedKeyPhone {
  keyId: string;
  publicKey: string;
  deviceId: string;
}

const ownerColumn = (owner: SealedKeyOwner) =>
  owner.kind === 'user' ? sealedKeyPhones.userId : sealedKeyPhones.agentId;

/** Records (or refreshes) the phone key: one row per account and key, whatever the number of requests at once. */
export async function recordSealedKeyPhone(
  exec: Executor,
  owner: SealedKeyOwner,
  phone: SealedKeyPhone & { keyDigits: string },
  now: Date,
): Promise<void> {
  const column = ownerColumn(owner);
  await exec
    .insert(sealedKeyPhones)
    .values({
      ...(owner.kind === 'user' ? { userId: owner.id } : { agentId: owner.id }),
      keyId: phone.keyId,
      keyDigits: phone.keyDigits,
      publicKey: phone.publicKey,
      deviceId: phone.deviceId,
      firstIssuedAt: now,
      lastIssuedAt: now,
    })
    .onConflictDoUpdate({
      target: [column, sealedKeyPhones.keyId],
      targetWhere: sql`${column} is not null`,
      set: { deviceId: phone.deviceId, lastIssuedAt: now },
    });
}

/**
 * The account's phone whose key id gives these digits; with two (one in a thousand), the one that fetched its sealed
 * keys last — the phone in the person's hand is the one most recently online.
 */
export async function sealedKeyPhoneByDigits(
  exec: Executor,
  owner: SealedKeyOwner,
  keyDigits: string,
): Promise<SealedKeyPhone | undefined> {
  const [row] = await exec
    .select({ keyId: sealedKeyPhones.keyId, publicKey: sealedKeyPhones.publicKey, deviceId: sealedKeyPhones.deviceId })
    .from(sealedKeyPhones)
    .where(and(eq(ownerColumn(owner), owner.id), eq(sealedKeyPhones.keyDigits, keyDigits)))
    .orderBy(desc(sealedKeyPhones.lastIssuedAt))
    .limit(1);
  return row;
}
