import {
  PARENTAL_PIN_LOCK_MINUTES,
  PARENTAL_PIN_MAX_TRIES,
  PARENTAL_UNLOCK_MINUTES,
  type ParentalPinStatus,
  type RemoveParentalPinRequest,
  type SetParentalPinRequest,
  type VerifyParentalPinRequest,
} from '@filamu/shared';
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { parentalPins, sessions } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { requireCurrentPassword } from '../auth/accounts.ts';
import type { Principal } from '../../http/principal.ts';
import { hashPin, pinMatches } from './pin-hash.ts';
import { parentalPinStatus } from '../auth/parental-status.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { TokenService } from '../auth/tokens.ts';

interface PinDeps {
  database: Database;
  clock: Clock;
  tokens: TokenService;
  config: Config;
}
type UserPrincipal = Extract<Principal, { kind: 'user' }>;

const MINUTE = 60_000;
const iso = (date: Date) => date.toISOString();

/** Set, change or reset a forgotten PIN: the password proves it is the account holder; any lock is lifted. */
export async function setParentalPin(
  deps: PinDeps,
  principal: UserPrincipal,
  input: z.output<typeof SetParentalPinRequest>,
): Promise<ParentalPinStatus> {
  await requireCurrentPassword(deps, principal, input.currentPassword);
  const verifier = await hashPin(input.pin);
  const now = deps.clock.now();
  const db = deps.database.db;
  const values = {
    hides: input.hides,
    salt: verifier.salt,
    pinHash: verifier.hash,
    iterations: verifier.iterations,
    failedAttempts: 0,
    lockedUntil: null,
    updatedAt: now,
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(parentalPins)
      .values({ userId: principal.user.id, ...values })
      .onConflictDoUpdate({ target: parentalPins.userId, set: values });
    // A new PIN hides again on every device, this one included: whoever set it is leaving the phone to a child.
    await tx.update(sessions).set({ parentalUnlockedUntil: null }).where(eq(sessions.userId, principal.user.id));
  });
  return parentalPinStatus(db, principal.user.id, principal.sessionId, now);
}

export async function removeParentalPin(
  deps: PinDeps,
  principal: UserPrincipal,
  input: z.output<typeof RemoveParentalPinRequest>,
): Promise<ParentalPinStatus> {
  await requireCurrentPassword(deps, principal, input.currentPassword);
  const db = deps.database.db;
  await db.transaction(async (tx) => {
    await tx.delete(parentalPins).where(eq(parentalPins.userId, principal.user.id));
    await tx.update(sessions).set({ parentalUnlockedUntil: null }).where(eq(sessions.userId, principal.user.id));
  });
  return parentalPinStatus(db, principal.user.id, principal.sessionId, deps.clock.now());
}

function lockedError(lockedUntil: Date, now: Date, justLocked: boolean): AppError {
  const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  const wait = `Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or set a new PIN with your password.`;
  const said = justLocked
    ? `Wrong PIN. After ${PARENTAL_PIN_MAX_TRIES} wrong tries the PIN is locked. ${wait}`
    : `Too many wrong PINs. ${wait}`;
  return new AppError('pin_locked', said, { retryAfterSeconds: seconds });
}

/**
 * Checks the PIN. Each try is counted before the PIN is compared, by one conditional update that only passes
 * while the PIN is not locked: concurrent tries queue on the row, so each is counted once and none is compared
 * after the fifth wrong one locked it. A right PIN clears the count and shows hidden titles on this session.
 */
export async function verifyParentalPin(
  deps: PinDeps,
  principal: UserPrincipal,
  input: z.output<typeof VerifyParentalPinRequest>,
): Promise<ParentalPinStatus> {
  const db = deps.database.db;
  const now = deps.clock.now();
  const userId = principal.user.id;
  const lockUntil = new Date(now.getTime() + PARENTAL_PIN_LOCK_MINUTES * MINUTE);
  // An expired lock restarts the count at this try.
  const thisTry = sql`(case when ${parentalPins.lockedUntil} is not null then 1 else ${parentalPins.failedAttempts} + 1 end)`;
  const [claimed] = await db
    .update(parentalPins)
    .set({
      failedAttempts: thisTry,
      lockedUntil: sql`case when ${thisTry} >= ${PARENTAL_PIN_MAX_TRIES}::int then ${iso(lockUntil)}::timestamptz else null end`,
      updatedAt: now,
    })
    .where(
      and(eq(parentalPins.userId, userId), or(isNull(parentalPins.lockedUntil), lte(parentalPins.lockedUntil, now))),
    )
    .returning();
  if (!claimed) {
    const [pin] = await db.select().from(parentalPins).where(eq(parentalPins.userId, userId));
    if (!pin) throw new AppError('conflict', 'No parental PIN is set.');
    throw lockedError(pin.lockedUntil ?? lockUntil, now, false);
  }
  const right = await pinMatches(
    { salt: claimed.salt, hash: claimed.pinHash, iterations: claimed.iterations },
    input.pin,
  );
  if (!right) {
    if (claimed.lockedUntil) throw lockedError(claimed.lockedUntil, now, true);
    const left = PARENTAL_PIN_MAX_TRIES - claimed.failedAttempts;
    throw new AppError('pin_wrong', `Wrong PIN. ${left} ${left === 1 ? 'try' : 'tries'} left.`);
  }
  await db.transaction(async (tx) => {
    // Only the row as this try found it: a PIN changed meanwhile keeps its own count.
    await tx
      .update(parentalPins)
      .set({ failedAttempts: 0, lockedUntil: null })
      .where(and(eq(parentalPins.userId, userId), eq(parentalPins.pinHash, claimed.pinHash)));
    await tx
      .update(sessions)
      .set({ parentalUnlockedUntil: new Date(now.getTime() + PARENTAL_UNLOCK_MINUTES * MINUTE) })
      .where(eq(sessions.id, principal.sessionId));
  });
  return parentalPinStatus(db, userId, principal.sessionId, now);
}

/** Hides the restricted titles again on this session before the 30 minutes are up. */
export async function lockParentalPin(deps: PinDeps, principal: UserPrincipal): Promise<ParentalPinStatus> {
  const db = deps.database.db;
  await db.update(sessions).set({ parentalUnlockedUntil: null }).where(eq(sessions.id, principal.sessionId));
  return parentalPinStatus(db, principal.user.id, principal.sessionId, deps.clock.now());
}
