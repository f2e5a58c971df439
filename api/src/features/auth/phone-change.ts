import {
  displayUgandaPhone,
  SUPPORT,
  type PhoneChangeCodeRequest,
  type PhoneChangeRequest,
  type PhoneChangeStarted,
  type UserProfile,
} from '@filamu/shared';
import { and, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import { isUniqueViolation, type Database, type Executor } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError, conflict } from '../../http/errors.ts';
import { hitLimits } from '../rate-limit/limiter.ts';
import { phoneChange as limits } from '../rate-limit/limits.ts';
import { assertCodeBudget } from '../sms/budget.ts';
import { phoneReleasedMail } from '../mail/texts.ts';
import { queueSms } from '../sms/outbox.ts';
import { phoneChangedNoticeText } from '../sms/texts.ts';
import { requireCurrentPassword } from './accounts.ts';
import { CODE_TTL_MINUTES, tryCode, voidOpenCodes } from './one-time-codes.ts';
import { issuePhoneCode } from './phone-codes.ts';
import type { Principal, UserRow } from '../../http/principal.ts';
import { userProfile } from './profile.ts';
import { guardedPasswordCheck } from './sign-in-guard.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.ts';
import type { TokenService } from './tokens.ts';

interface PhoneChangeDeps {
  database: Database;
  clock: Clock;
  tokens: TokenService;
  config: Config;
  logger: Logger;
  mailer: Mailer;
}
type UserPrincipal = Extract<Principal, { kind: 'user' }>;

const WRONG_CODE = 'That code is wrong or has expired. Check the message, or ask for a new code.';
const SAME_NUMBER = 'That is already your number, and it is confirmed.';
const ALREADY_CONFIRMED = 'Your phone number is already confirmed.';
const NO_PHONE = 'Your account has no phone number yet. Add one with "Change phone number" on your profile.';
/** Said only to whoever received the code at that number: it tells nothing to someone who merely typed it. */
const TAKEN = `Another account has confirmed this phone number. If it is yours, contact support on ${SUPPORT.phone}.`;

const phoneIssue = (message: string) =>
  new AppError('bad_request', message, { issues: [{ path: 'newPhone', message }] });

const started = (phone: string): PhoneChangeStarted => ({
  message: `We sent a code to ${displayUgandaPhone(phone)}. It works for ${CODE_TTL_MINUTES} minutes.`,
  newPhone: phone,
  expiresInMinutes: CODE_TTL_MINUTES,
});

/** One code to `phone`, within the SMS budget and the caller's network ceiling (decision 0201). */
async function sendCode(deps: PhoneChangeDeps, userId: string, phone: string, ip: string): Promise<PhoneChangeStarted> {
  const now = deps.clock.now();
  await assertCodeBudget(deps.database.db, deps.logger, { purpose: 'phone_change_code', ip, now });
  await deps.database.db.transaction((tx) => issuePhoneCode(deps, tx, userId, phone, now));
  deps.logger.info({ userId }, 'phone code issued');
  return started(phone);
}

/**
 * Step one of a change: the password (through the sign-in throttle), the limits, then a code by SMS to the new number.
 * A number another account holds gets the same answer and the same code (decision 0197): the limits count before
 * anything is said, and whether the number is taken is told only to whoever proves it by the code.
 */
export async function requestPhoneChangeCode(
  deps: PhoneChangeDeps,
  principal: UserPrincipal,
  input: z.output<typeof PhoneChangeCodeRequest>,
  ip: string,
): Promise<PhoneChangeStarted> {
  const { user } = principal;
  const newPhone = input.newPhone;
  await requireCurrentPassword(deps, principal, input.currentPassword);
  await hitLimits(deps.database.db, deps.clock.now(), [
    { limit: limits.perAccount, subject: user.id },
    { limit: limits.perNumber, subject: newPhone },
  ]);
  if (user.phone === newPhone && user.phoneVerifiedAt) throw phoneIssue(SAME_NUMBER);
  return sendCode(deps, user.id, newPhone, ip);
}

/**
 * "Confirm your phone number": a code to the account's own number, no password (it changes nothing but the proof).
 * Confirmed with `changePhone` and the same number.
 */
export async function requestPhoneProofCode(deps: PhoneChangeDeps, principal: UserPrincipal, ip: string) {
  const { user } = principal;
  if (!user.phone) throw new AppError('bad_request', NO_PHONE);
  if (user.phoneVerifiedAt) throw new AppError('bad_request', ALREADY_CONFIRMED);
  await hitLimits(deps.database.db, deps.clock.now(), [
    { limit: limits.perAccount, subject: user.id },
    { limit: limits.perNumber, subject: user.phone },
  ]);
  return sendCode(deps, user.id, user.phone, ip);
}

/**
 * An unproven account loses the number to the person who proved it (decision 0199): its phone is cleared, its open
 * codes die, and it is told by email, where it still signs in. Its plan, sessions and history stay.
 */
async function releaseUnprovenNumber(deps: PhoneChangeDeps, tx: Executor, holder: UserRow, now: Date) {
  await tx.update(users).set({ phone: null, phoneVerifiedAt: null, updatedAt: now }).where(eq(users.id, holder.id));
  await voidOpenCodes(tx, holder.id, now);
  await deps.mailer.queue(tx, {
    to: holder.email,
    kind: 'phone_released',
    ...phoneReleasedMail({ name: holder.fullName, phone: holder.phone!, email: holder.email }, holder.language),
  });
  deps.logger.info({ userId: holder.id }, 'unproven phone number released to the account that proved it');
}

/**
 * Step two: the code proves the number, and in one transaction the account takes it (from an unproven holder if need
 * be), the old number is told, and every open code of the account dies (decision 0198). The same number confirms it.
 */
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
    async () =>
      (await tryCode(deps, { purpose: 'phone', userId: user.id, destination: newPhone }, input.code)) !== null,
  );
  if (!valid) throw new AppError('bad_request', WRONG_CODE, { issues: [{ path: 'code', message: WRONG_CODE }] });
  const now = deps.clock.now();
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx.select().from(users).where(eq(users.id, user.id)).for('update');
      const [holder] = await tx
        .select()
        .from(users)
        .where(and(eq(users.phone, newPhone), ne(users.id, user.id)))
        .for('update');
      if (holder) {
        if (holder.phoneVerifiedAt || holder.isAdmin) throw conflict(TAKEN);
        await releaseUnprovenNumber(deps, tx, holder, now);
      }
      const moved = current!.phone !== newPhone;
      const [updated] = await tx
        .update(users)
        .set({
          phone: newPhone,
          phoneVerifiedAt: moved || !current!.phoneVerifiedAt ? now : current!.phoneVerifiedAt,
          updatedAt: now,
        })
        .where(eq(users.id, user.id))
        .returning();
      if (moved) {
        await voidOpenCodes(tx, user.id, now);
        if (current!.phone) {
          await queueSms(tx, now, {
            to: current!.phone,
            text: phoneChangedNoticeText(newPhone, current!.language),
            purpose: 'phone_changed',
          });
        }
      }
      deps.logger.info({ userId: user.id, moved }, moved ? 'phone number changed' : 'phone number confirmed');
      return userProfile(tx, updated!, now, principal.sessionId);
    });
  } catch (error) {
    // Two accounts confirmed codes for one number: the unique index lets the first commit win.
    if (isUniqueViolation(error, 'users_phone_unique')) throw conflict(TAKEN);
    throw error;
  }
}
