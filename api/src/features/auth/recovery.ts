import { randomInt, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { AuthResponse, RecoveryRequest, RecoveryStarted, ResetPasswordRequest } from '@filamu/shared';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { passwordResetCodes, users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { countHits, hitLimits } from '../rate-limit/limiter.ts';
import { recovery as limits } from '../rate-limit/limits.ts';
import { queueSms } from '../sms/outbox.ts';
import { identifierLookup, openSession, type RequestContext } from './accounts.ts';
import { hashPassword } from './passwords.ts';
import { userProfile } from './profile.ts';
import { revokeSessions } from './sessions.ts';
import { guardedPasswordCheck } from './sign-in-guard.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.ts';
import type { TokenService } from './tokens.ts';

interface RecoveryDeps {
  database: Database;
  clock: Clock;
  tokens: TokenService;
  config: Config;
  mailer: Mailer;
  logger: Logger;
}

/** Decision 0148: six digits, ten minutes, five tries, one use. */
export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_TRIES = 5;
/**
 * Every "send me a code" answer takes at least this long, so an account that exists (a lookup and a few writes) and
 * one that does not (a lookup) answer alike; the writes take a few milliseconds, well under it.
 */
export const ANSWER_FLOOR_MS = 250;

const STARTED: RecoveryStarted = {
  message: 'If an account uses this phone number or email, we have sent it a 6-digit code. It works for 10 minutes.',
  expiresInMinutes: CODE_TTL_MINUTES,
};
const WRONG_CODE = 'That code is wrong or has expired. Check the message, or ask for a new code.';
const NOT_A_PHONE_OR_EMAIL = 'Enter the phone number (e.g., 0772 123 456) or the email of your account.';

const codeDigest = (deps: { tokens: TokenService }, userId: string, code: string) =>
  deps.tokens.digest('password-reset-code', `${userId}:${code}`);

function lookupOrRefuse(identifier: string) {
  const lookup = identifierLookup(identifier);
  if (!lookup) {
    throw new AppError('bad_request', NOT_A_PHONE_OR_EMAIL, {
      issues: [{ path: 'identifier', message: NOT_A_PHONE_OR_EMAIL }],
    });
  }
  return lookup;
}

const sleepUntil = (deadline: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, deadline - performance.now())));

/**
 * "Send me a code": to the registered phone by SMS when a phone number is given, to the account's email when an email
 * is. The same answer, after the same time, whether or not an account exists, and whether or not one was sent.
 */
export async function requestRecoveryCode(
  deps: RecoveryDeps,
  input: z.output<typeof RecoveryRequest>,
  ctx: RequestContext,
): Promise<RecoveryStarted> {
  const deadline = performance.now() + ANSWER_FLOOR_MS;
  const lookup = lookupOrRefuse(input.identifier);
  const { db } = deps.database;
  // Loud limits count what was typed and where from, the same for every answer: they tell nothing about accounts.
  await hitLimits(db, deps.clock.now(), [
    { limit: limits.perIdentifier, subject: lookup.key },
    { limit: limits.perIp, subject: ctx.ip },
  ]);
  const [user] = await db.select().from(users).where(lookup.where);
  // The protected admin's password comes from ADMIN_PASSWORD at every start; no code can change it (decision 0148).
  if (user && !user.isAdmin) {
    // Per account, whichever identifier named it; over the limit nothing is sent, and the answer is unchanged.
    const refused = await countHits(db, deps.clock.now(), [{ limit: limits.perAccount, subject: user.id }]);
    if (!refused) await issueCode(deps, user, lookup.key.startsWith('phone:') ? 'phone' : 'email');
    else deps.logger.warn({ userId: user.id }, 'recovery code not sent: account over its limit');
  }
  await sleepUntil(deadline);
  return STARTED;
}

async function issueCode(
  deps: RecoveryDeps,
  user: typeof users.$inferSelect,
  channel: 'phone' | 'email',
): Promise<void> {
  const now = deps.clock.now();
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000);
  const text = `Your Filamu code is ${code}. It works for ${CODE_TTL_MINUTES} minutes. Never share it: Filamu will never ask you for it.`;
  await deps.database.db.transaction(async (tx) => {
    // A new code replaces the open ones: only the latest message works.
    await tx
      .update(passwordResetCodes)
      .set({ usedAt: now })
      .where(and(eq(passwordResetCodes.userId, user.id), isNull(passwordResetCodes.usedAt)));
    await tx
      .insert(passwordResetCodes)
      .values({ userId: user.id, channel, codeHash: codeDigest(deps, user.id, code), expiresAt, createdAt: now });
    if (channel === 'phone' && user.phone) {
      await queueSms(tx, now, { to: user.phone, text, purpose: 'password_reset', expiresAt });
    } else {
      await deps.mailer.queue(tx, {
        to: user.email,
        subject: 'Your Filamu code',
        body: `${text}\n\nIf you did not ask for it, ignore this mail: your password has not changed.`,
        kind: 'password_reset',
      });
    }
  });
  deps.logger.info({ userId: user.id, channel }, 'recovery code issued');
}

/**
 * Consumes one try of the account's open code: true when it matches (the code is then used up). Under a row lock,
 * so concurrent guesses are counted one by one and a right code works once.
 */
async function tryCode(deps: RecoveryDeps, userId: string, code: string): Promise<boolean> {
  const now = deps.clock.now();
  return deps.database.db.transaction(async (tx) => {
    const [open] = await tx
      .select()
      .from(passwordResetCodes)
      .where(
        and(
          eq(passwordResetCodes.userId, userId),
          isNull(passwordResetCodes.usedAt),
          gt(passwordResetCodes.expiresAt, now),
        ),
      )
      .orderBy(desc(passwordResetCodes.createdAt))
      .limit(1)
      .for('update');
    if (!open) return false;
    const given = Buffer.from(codeDigest(deps, userId, code), 'hex');
    const right = timingSafeEqual(given, Buffer.from(open.codeHash, 'hex'));
    const tries = open.attempts + 1;
    await tx
      .update(passwordResetCodes)
      .set({
        attempts: sql`${passwordResetCodes.attempts} + 1`,
        // Used by the right code; burnt by the fifth wrong one.
        ...((right || tries >= CODE_MAX_TRIES) && { usedAt: now }),
      })
      .where(eq(passwordResetCodes.id, open.id));
    return right;
  });
}

/** "Reset with code": a new password, every session ended, and signed in on this device (what login returns). */
export async function resetPassword(
  deps: RecoveryDeps,
  input: z.output<typeof ResetPasswordRequest>,
  ctx: RequestContext,
): Promise<AuthResponse> {
  const lookup = lookupOrRefuse(input.identifier);
  const { db } = deps.database;
  const [user] = await db.select().from(users).where(lookup.where);
  const eligible = user && !user.isAdmin ? user : undefined;
  // The sign-in throttle and its carrier-friendly address ceiling (ADR 0060), on a key of its own.
  const accountKey = `recover:user:${eligible ? `id:${eligible.id}` : lookup.key}`;
  const valid = await guardedPasswordCheck(
    db,
    () => deps.clock.now(),
    { accountKey, ip: ctx.ip },
    async () => (eligible ? tryCode(deps, eligible.id, input.code) : false),
  );
  if (!eligible || !valid) {
    throw new AppError('bad_request', WRONG_CODE, { issues: [{ path: 'code', message: WRONG_CODE }] });
  }
  const passwordHash = await hashPassword(input.newPassword);
  const now = deps.clock.now();
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(eq(users.id, eligible.id))
      .returning();
    await revokeSessions(tx, { kind: 'user', id: eligible.id }, now, 'password_reset');
    const { token, sessionId } = await openSession(
      deps,
      tx,
      { kind: 'user', id: eligible.id },
      false,
      input.currentDeviceId,
      ctx,
    );
    deps.logger.info({ userId: eligible.id }, 'password reset with a recovery code');
    return { token, user: await userProfile(tx, updated!, now, sessionId) };
  });
}
