import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { oneTimeCodes, type ONE_TIME_CODE_PURPOSES } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TokenService } from './tokens.ts';

/** Decision 0148: six digits, ten minutes, five tries, one use. */
export const CODE_TTL_MINUTES = 10;
const CODE_MAX_TRIES = 5;
/**
 * Codes a guess is checked against (decision 0198): each request has its own code, so a stranger's request does not
 * kill the one the owner holds. The recovery cool-down keeps fewer than this open at once.
 */
const OPEN_CODES_CHECKED = 6;

export type CodePurpose = (typeof ONE_TIME_CODE_PURPOSES)[number];

/**
 * The digest of a code. A phone code is bound to its number too, so a code sent to one number cannot prove or move
 * the account to another; a recovery code proves whichever channel it went to. The keys are the ones each kind had
 * in its own table before decision 0227, so codes copied across by migration 0025 still match.
 */
function codeDigest(tokens: TokenService, purpose: CodePurpose, userId: string, destination: string, code: string) {
  return purpose === 'phone'
    ? tokens.digest('phone-change-code', `${userId}:${destination}:${code}`)
    : tokens.digest('password-reset-code', `${userId}:${code}`);
}

interface CodeFor {
  purpose: CodePurpose;
  userId: string;
  /** Recovery: `phone` or `email`; phone: the canonical number the code went to. */
  destination: string;
}

/**
 * A new code, stored in the caller's transaction, which also sends it; open codes are left alone (each request has
 * its own, decision 0198). Returns the digits, to send and forget.
 */
export async function issueCode(
  tokens: TokenService,
  tx: Executor,
  to: CodeFor,
  now: Date,
): Promise<{ code: string; expiresAt: Date }> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000);
  await tx.insert(oneTimeCodes).values({
    ...to,
    codeHash: codeDigest(tokens, to.purpose, to.userId, to.destination, code),
    expiresAt,
    createdAt: now,
  });
  return { code, expiresAt };
}

/**
 * One try against the account's open codes for the purpose (and for a phone code, its number), under row locks so
 * concurrent guesses count one by one and a right code works once. A wrong guess costs each open code a try (the
 * fifth burns it, in the same conditional update), so more open codes never mean more guesses. Returns where the
 * matching code went, or null.
 */
export async function tryCode(
  deps: { database: Database; clock: Clock; tokens: TokenService },
  of: { purpose: CodePurpose; userId: string; destination?: string },
  code: string,
): Promise<string | null> {
  const now = deps.clock.now();
  const where: SQL[] = [
    eq(oneTimeCodes.userId, of.userId),
    eq(oneTimeCodes.purpose, of.purpose),
    isNull(oneTimeCodes.usedAt),
    gt(oneTimeCodes.expiresAt, now),
  ];
  if (of.destination !== undefined) where.push(eq(oneTimeCodes.destination, of.destination));
  return deps.database.db.transaction(async (tx) => {
    const open = await tx
      .select()
      .from(oneTimeCodes)
      .where(and(...where))
      .orderBy(desc(oneTimeCodes.createdAt))
      .limit(OPEN_CODES_CHECKED)
      .for('update');
    if (open.length === 0) return null;
    const right = open.find((row) =>
      timingSafeEqual(
        Buffer.from(codeDigest(deps.tokens, of.purpose, of.userId, row.destination, code), 'hex'),
        Buffer.from(row.codeHash, 'hex'),
      ),
    );
    if (right) {
      await tx
        .update(oneTimeCodes)
        .set({ attempts: sql`${oneTimeCodes.attempts} + 1`, usedAt: now })
        .where(eq(oneTimeCodes.id, right.id));
      return right.destination;
    }
    await tx
      .update(oneTimeCodes)
      .set({
        attempts: sql`${oneTimeCodes.attempts} + 1`,
        usedAt: sql`case when ${oneTimeCodes.attempts} + 1 >= ${CODE_MAX_TRIES} then ${now.toISOString()}::timestamptz else null end`,
      })
      .where(
        inArray(
          oneTimeCodes.id,
          open.map((row) => row.id),
        ),
      );
    return null;
  });
}

/** When the account's codes for the purpose made after `since` were made, newest first (for a cool-down). */
export async function recentCodes(tx: Executor, userId: string, purpose: CodePurpose, since: Date): Promise<Date[]> {
  const rows = await tx
    .select({ createdAt: oneTimeCodes.createdAt })
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, purpose), gt(oneTimeCodes.createdAt, since)))
    .orderBy(desc(oneTimeCodes.createdAt));
  return rows.map((row) => row.createdAt);
}

/**
 * Every open code of the account dies, whatever its purpose (decision 0198): run in the transaction that changes its
 * phone, email or password, so a code sent before the change cannot undo it.
 */
export async function voidOpenCodes(exec: Executor, userId: string, now: Date): Promise<void> {
  await exec
    .update(oneTimeCodes)
    .set({ usedAt: now })
    .where(and(eq(oneTimeCodes.userId, userId), isNull(oneTimeCodes.usedAt)));
}
