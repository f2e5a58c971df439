import { performance } from 'node:perf_hooks';
import {
  SUPPORT,
  type AuthResponse,
  type RecoveryRequest,
  type RecoveryStarted,
  type ResetPasswordRequest,
} from '@filamu/shared';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { users } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { hitLimits } from '../rate-limit/limiter.ts';
import { recovery as limits } from '../rate-limit/limits.ts';
import { assertCodeBudget } from '../sms/budget.ts';
import { identifierLookup, openSession, type RequestContext } from './accounts.ts';
import { CODE_TTL_MINUTES, voidOpenCodes } from './one-time-codes.ts';
import { hashPassword } from './passwords.ts';
import { issueRecoveryCode, notifyOtherChannel, tryRecoveryCode } from './recovery-codes.ts';
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

export { CODE_TTL_MINUTES } from './one-time-codes.ts';
/**
 * Every "send me a code" answer takes at least this long, so an account that exists (a lookup and a few writes) and
 * one that does not (a lookup) answer alike; the writes take a few milliseconds, well under it.
 */
export const ANSWER_FLOOR_MS = 250;

/**
 * The same answer whoever asks (decision 0148); for a number it also says what to do when it is not confirmed, since
 * codes go only to a confirmed phone (decision 0197) and the answer cannot say which numbers are.
 */
const STARTED = {
  phone: {
    message: `If this number is confirmed on a Filamu account, we have sent it a 6-digit code. It works for ${CODE_TTL_MINUTES} minutes, and codes sent earlier still work. No code? Ask with your email instead, or contact support on ${SUPPORT.phone}.`,
    expiresInMinutes: CODE_TTL_MINUTES,
  },
  email: {
    message: `If an account uses this email, we have sent it a 6-digit code. It works for ${CODE_TTL_MINUTES} minutes, and codes sent earlier still work. No mail? Check your spam folder, or contact support on ${SUPPORT.phone}.`,
    expiresInMinutes: CODE_TTL_MINUTES,
  },
} satisfies Record<string, RecoveryStarted>;
const WRONG_CODE = 'That code is wrong or has expired. Check the message, or ask for a new code.';
const NOT_A_PHONE_OR_EMAIL = 'Enter the phone number (e.g., 0772 123 456) or the email of your account.';

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
  // Before the lookup, so a full budget refuses every request alike and tells nothing about accounts (decision 0201).
  await assertCodeBudget(db, deps.logger, {
    purpose: 'password_reset',
    ip: ctx.ip,
    now: deps.clock.now(),
    channel: lookup.key.startsWith('phone:') ? 'sms' : 'email',
  });
  const [user] = await db.select().from(users).where(lookup.where);
  const channel = lookup.key.startsWith('phone:') ? 'phone' : 'email';
  // The protected admin's password comes from ADMIN_PASSWORD at every start; no code can change it (decision 0148).
  // A phone nobody proved gets nothing: it may be a typo, a recycled SIM or a squatter's (decision 0197).
  if (user && !user.isAdmin && (channel === 'email' || user.phoneVerifiedAt)) {
    // Over the account's cool-down nothing new is sent (decision 0198); the codes already sent still work.
    const sent = await issueRecoveryCode(deps, user, channel);
    if (!sent) deps.logger.info({ userId: user.id }, 'recovery code not sent: account cooling down');
  }
  await sleepUntil(deadline);
  return STARTED[channel];
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
  // Where the matching code went, set by the check below.
  const used: { channel: 'phone' | 'email' | null } = { channel: null };
  // The sign-in throttle on a key of its own, and the address ceiling on the recovery budget (decision 0194).
  const accountKey = `recover:user:${eligible ? `id:${eligible.id}` : lookup.key}`;
  const valid = await guardedPasswordCheck(
    db,
    () => deps.clock.now(),
    { accountKey, address: { ...ctx.gate, budget: 'recovery', weighs: user !== undefined } },
    async () => (eligible ? (used.channel = await tryRecoveryCode(deps, eligible.id, input.code)) !== null : false),
  );
  if (!eligible || !valid || !used.channel) {
    throw new AppError('bad_request', WRONG_CODE, { issues: [{ path: 'code', message: WRONG_CODE }] });
  }
  const passwordHash = await hashPassword(input.newPassword);
  const now = deps.clock.now();
  const channel = used.channel;
  return db.transaction(async (tx) => {
    // The code proved the channel it went to (decision 0197); the password changed, so other open codes die (0198).
    const [updated] = await tx
      .update(users)
      .set({
        passwordHash,
        ...(channel === 'phone' ? { phoneVerifiedAt: eligible.phoneVerifiedAt ?? now } : {}),
        ...(channel === 'email' ? { emailVerifiedAt: eligible.emailVerifiedAt ?? now } : {}),
        updatedAt: now,
      })
      .where(eq(users.id, eligible.id))
      .returning();
    await voidOpenCodes(tx, eligible.id, now);
    await notifyOtherChannel(deps, tx, updated!, channel, now);
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
