import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  displayUgandaPhone,
  type PhoneChangeCodeRequest,
  type PhoneChangeRequest,
  type PhoneChangeStarted,
  type UserProfile,
} from '@filamu/shared';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isUniqueViolation, type Database } from '../../db/client.ts';
import { phoneChangeCodes, users } from '../../db/schema.ts';
import { AppError, conflict } from '../../http/errors.ts';
import { hitLimits } from '../rate-limit/limiter.ts';
import { phoneChange as limits } from '../rate-limit/limits.ts';
import { queueSms } from '../sms/outbox.ts';
import { phoneChangeCodeText, phoneChangedNoticeText } from '../sms/texts.ts';
import { requireCurrentPassword } from './accounts.ts';
import type { Principal } from './principal.ts';
import { userProfile } from './profile.ts';
import { CODE_MAX_TRIES, CODE_TTL_MINUTES } from './recovery.ts';
import { guardedPasswordCheck } from './sign-in-guard.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Logger } from 'pino';
import type { TokenService } from './tokens.ts';

interface PhoneChangeDeps {
  database: Database;
  clock: Clock;
  tokens: TokenService;
  config: Config;
  logger: Logger;
}
type UserPrincipal = Extract<Principal, { kind: 'user' }>;

const WRONG_CODE = 'That code is wrong or has expired. Check the message, or ask for a new code.';
const SAME_NUMBER = 'That is already your number.';
/** Said plainly, as registration does; only after the password is right, so it reveals nothing to a session thief. */
const TAKEN = 'An account with this phone number already exists.';

const phoneIssue = (message: string) =>
  new AppError('bad_request', message, { issues: [{ path: 'newPhone', message }] });

/** Bound to the account and the number: a code sent to one number cannot move the account to another. */
const codeDigest = (deps: { tokens: TokenService }, userId: string, newPhone: string, code: string) =>
  deps.tokens.digest('phone-change-code', `${userId}:${newPhone}:${code}`);

async function refuseTakenOrSame(deps: PhoneChangeDeps, user: UserPrincipal['user'], newPhone: string) {
  if (user.phone === newPhone) throw phoneIssue(SAME_NUMBER);
  const [other] = await deps.database.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phone, newPhone), ne(users.id, user.id)));
  if (other) throw conflict(TAKEN);
}

/** Step one: the password (through the sign-in throttle), then a code by SMS to the new number. */
export async function requestPhoneChangeCode(
  deps: PhoneChangeDeps,
  principal: UserPrincipal,
  input: z.output<typeof PhoneChangeCodeRequest>,
): Promise<PhoneChangeStarted> {
  const { user } = principal;
  const newPhone = input.newPhone;
  await requireCurrentPassword(deps, principal, input.currentPassword);
  await refuseTakenOrSame(deps, user, newPhone);
  const now = deps.clock.now();
  await hitLimits(deps.database.db, now, [
    { limit: limits.perAccount, subject: user.id },
    { limit: limits.perNumber, subject: newPhone },
  ]);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000);
  await deps.database.db.transaction(async (tx) => {
    // Only the latest request works, whichever number it named.
    await tx
      .update(phoneChangeCodes)
      .set({ usedAt: now })
      .where(and(eq(phoneChangeCodes.userId, user.id), isNull(phoneChangeCodes.usedAt)));
    await tx.insert(phoneChangeCodes).values({
      userId: user.id,
      newPhone,
      codeHash: codeDigest(deps, user.id, newPhone, code),
      expiresAt,
      createdAt: now,
    });
    await queueSms(tx, now, {
      to: newPhone,
      text: phoneChangeCodeText(code, CODE_TTL_MINUTES),
      purpose: 'phone_change_code',
      expiresAt,
    });
  });
  deps.logger.info({ userId: user.id }, 'phone change code issued');
  return {
    message: `We sent a code to ${displayUgandaPhone(newPhone)}. It works for ${CODE_TTL_MINUTES} minutes.`,
    newPhone,
    expiresInMinutes: CODE_TTL_MINUTES,
  };
}

/** One try of the account's open code for this number, under a row lock: tries counted one by one, used once. */
async function tryCode(deps: PhoneChangeDeps, userId: string, newPhone: string, code: string): Promise<boolean> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const [open] = await tx
      .select()
      .from(phoneChangeCodes)
      .where(
        and(eq(phoneChangeCodes.userId, userId), isNull(phoneChangeCodes.usedAt), gt(phoneChangeCodes.expiresAt, now)),
      )
      .orderBy(desc(phoneChangeCodes.createdAt))
      .limit(1)
      .for('update');
    if (!open) return false;
    const given = Buffer.from(codeDigest(deps, userId, newPhone, code), 'hex');
    const right = timingSafeEqual(given, Buffer.from(open.codeHash, 'hex'));
    const tries = open.attempts + 1;
    await tx
      .update(phoneChangeCodes)
      .set({
        attempts: sql`${phoneChangeCodes.attempts} + 1`,
        ...((right || tries >= CODE_MAX_TRIES) && { usedAt: now }),
      })
      .where(eq(phoneChangeCodes.id, open.id));
    return right;
  });
}

/** Step two: the code moves the number, in one transaction with the notice to the old number. */
export async function changePhone(
  deps: PhoneChangeDeps,
  principal: UserPrincipal,
  input: z.output<typeof PhoneChangeRequest>,
): Promise<UserProfile> {
  const { user } = principal;
  const newPhone = input.newPhone;
  const { db } = deps.database;
  const valid = await guardedPasswordCheck(
    db,
    () => deps.clock.now(),
    { accountKey: `phone-change:user:${user.id}` },
    () => tryCode(deps, user.id, newPhone, input.code),
  );
  if (!valid) throw new AppError('bad_request', WRONG_CODE, { issues: [{ path: 'code', message: WRONG_CODE }] });
  const now = deps.clock.now();
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx.select().from(users).where(eq(users.id, user.id)).for('update');
      const [updated] = await tx
        .update(users)
        .set({ phone: newPhone, updatedAt: now })
        .where(eq(users.id, user.id))
        .returning();
      if (current?.phone && current.phone !== newPhone) {
        await queueSms(tx, now, {
          to: current.phone,
          text: phoneChangedNoticeText(newPhone),
          purpose: 'phone_changed',
        });
      }
      deps.logger.info({ userId: user.id }, 'phone number changed');
      return userProfile(tx, updated!, now, principal.sessionId);
    });
  } catch (error) {
    // Two accounts confirmed codes for one number: the unique index lets the first commit win.
    if (isUniqueViolation(error, 'users_phone_unique')) throw conflict(TAKEN);
    throw error;
  }
}
