import {
  type AgentAuthResponse,
  type AgentLoginRequest,
  type AuthResponse,
  type ChangePasswordRequest,
  type LoginRequest,
  type RegisterRequest,
  type UpdateProfileRequest,
  type UserProfile,
  canonicalUgandaPhone,
} from '@filamu/shared';
import type { z } from 'zod';
import { eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { isUniqueViolation, type Database } from '../../db/client.ts';
import { transactionRetrying } from '../../db/retry.ts';
import { agents, sessions, users } from '../../db/schema.ts';
import { AppError, conflict } from '../../http/errors.ts';
import { countHits } from '../rate-limit/limiter.ts';
import { phoneChange } from '../rate-limit/limits.ts';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './passwords.ts';
import type { Principal } from '../../http/principal.ts';
import { voidOpenCodes } from './one-time-codes.ts';
import { issuePhoneCode } from './phone-codes.ts';
import { agentProfile, userProfile } from './profile.ts';
import { revokeSessions, startSession, type Subject } from './sessions.ts';
import { guardedPasswordCheck } from './sign-in-guard.ts';
import type { AddressGate } from './ip-ceiling.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { TokenService } from './tokens.ts';

interface AuthDeps {
  database: Database;
  clock: Clock;
  tokens: TokenService;
  config: Config;
}
export interface RequestContext {
  ip: string;
  deviceId: string | undefined;
  /** The request's User-Agent, already cut to size (`storedUserAgent`); kept with the session. */
  userAgent: string | null;
  /** The address's sign-in and recovery ceiling, with any proof of work the request brought (decision 0194). */
  gate: AddressGate;
}

const INVALID_CREDENTIALS = 'Invalid credentials. Please try again.';
const PHONE_TAKEN = 'An account with this phone number already exists.';
const INVALID_AGENT_CREDENTIALS = 'Invalid agent credentials. Please try again.';

function duplicateAccountError(error: unknown): AppError | null {
  if (isUniqueViolation(error, 'users_email_unique')) return conflict('An account with this email already exists.');
  if (isUniqueViolation(error, 'users_phone_unique')) return conflict(PHONE_TAKEN);
  return null;
}

export async function openSession(
  deps: AuthDeps,
  tx: Parameters<typeof startSession>[0],
  subject: Subject,
  isAdmin: boolean,
  bodyDeviceId: string | undefined,
  ctx: RequestContext,
) {
  const now = deps.clock.now();
  const ttl = isAdmin ? deps.config.adminSessionTtlMs : deps.config.sessionTtlMs;
  const expiresAt = new Date(now.getTime() + ttl);
  const deviceId = bodyDeviceId ?? ctx.deviceId ?? `device-${randomUUID()}`;
  const session = await startSession(tx, subject, { deviceId, userAgent: ctx.userAgent }, expiresAt, now);
  const token = await deps.tokens.sign({ sessionId: session.id, subjectId: subject.id, kind: subject.kind }, expiresAt);
  return { token, sessionId: session.id };
}

/**
 * A new account, signed in. Its phone is unproven until a code sent to it is used (decision 0197). A number an
 * unproven account holds is not refused: the new account starts without a phone and a code goes to the number, so
 * whoever receives it can claim it (decision 0199); a proven number is refused, as before.
 */
export async function register(
  deps: AuthDeps,
  input: z.output<typeof RegisterRequest>,
  ctx: RequestContext,
): Promise<AuthResponse> {
  const { db } = deps.database;
  const [holder] = await db
    .select({ provenAt: users.phoneVerifiedAt, isAdmin: users.isAdmin })
    .from(users)
    .where(eq(users.phone, input.phone));
  if (holder && (holder.provenAt || holder.isAdmin)) throw conflict(PHONE_TAKEN);
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  // Counted with the number's other codes; over its limit the claim code is not sent, and the profile's phone
  // change sends one later.
  const textClaim = holder && !(await countHits(db, now, [{ limit: phoneChange.perNumber, subject: input.phone }]));
  try {
    return await transactionRetrying(db, async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          email: input.email,
          phone: holder ? null : input.phone,
          fullName: input.fullName,
          passwordHash,
          ...(input.language !== undefined && { language: input.language }),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (textClaim) await issuePhoneCode(deps, tx, user!.id, input.phone, now);
      const { token, sessionId } = await openSession(
        deps,
        tx,
        { kind: 'user', id: user!.id },
        false,
        input.currentDeviceId,
        ctx,
      );
      return { token, user: await userProfile(tx, user!, now, sessionId) };
    });
  } catch (error) {
    throw duplicateAccountError(error) ?? error;
  }
}

/** Email (any case) or Uganda phone (any spelling) → the lookup condition and the throttle key. */
export function identifierLookup(identifier: string) {
  if (identifier.includes('@')) {
    const email = identifier.trim().toLowerCase();
    return { where: eq(users.email, email), key: `email:${email}` };
  }
  const phone = canonicalUgandaPhone(identifier);
  return phone ? { where: eq(users.phone, phone), key: `phone:${phone}` } : null;
}

export async function login(
  deps: AuthDeps,
  input: z.output<typeof LoginRequest>,
  ctx: RequestContext,
): Promise<AuthResponse> {
  const { db } = deps.database;
  const lookup = identifierLookup(input.identifier);
  const [user] = lookup ? await db.select().from(users).where(lookup.where) : [];
  // An existing account is counted once whichever identifier (email or phone) names it.
  const accountKey = user ? `id:${user.id}` : (lookup?.key ?? input.identifier.toLowerCase());
  const valid = await guardedPasswordCheck(
    db,
    () => deps.clock.now(),
    { accountKey: `login:user:${accountKey}`, address: { ...ctx.gate, budget: 'sign-in', weighs: user !== undefined } },
    () => (user ? verifyPassword(user.passwordHash, input.password) : verifyAgainstNothing(input.password)),
  );
  if (!user || !valid) {
    throw new AppError('unauthenticated', INVALID_CREDENTIALS);
  }
  const now = deps.clock.now();
  return db.transaction(async (tx) => {
    const { token, sessionId } = await openSession(
      deps,
      tx,
      { kind: 'user', id: user.id },
      user.isAdmin,
      input.currentDeviceId,
      ctx,
    );
    return { token, user: await userProfile(tx, user, now, sessionId) };
  });
}

export async function agentLogin(
  deps: AuthDeps,
  input: z.output<typeof AgentLoginRequest>,
  ctx: RequestContext,
): Promise<AgentAuthResponse> {
  const { db } = deps.database;
  const email = input.email.trim().toLowerCase();
  const [agent] = await db.select().from(agents).where(eq(agents.email, email));
  // An inactive agent gets exactly the answer (and the count) a wrong password gets.
  const valid = await guardedPasswordCheck(
    db,
    () => deps.clock.now(),
    { accountKey: `login:agent:${email}`, address: { ...ctx.gate, budget: 'sign-in', weighs: agent !== undefined } },
    async () =>
      agent
        ? (await verifyPassword(agent.passwordHash, input.password)) && agent.isActive
        : verifyAgainstNothing(input.password),
  );
  if (!agent || !valid) {
    throw new AppError('unauthenticated', INVALID_AGENT_CREDENTIALS);
  }
  return db.transaction(async (tx) => {
    const { token } = await openSession(deps, tx, { kind: 'agent', id: agent.id }, false, input.currentDeviceId, ctx);
    return { token, agent: agentProfile(agent) };
  });
}

export async function logout(deps: AuthDeps, principal: Principal): Promise<{ message: string }> {
  await deps.database.db
    .update(sessions)
    .set({ revokedAt: deps.clock.now(), revokedReason: 'logout' })
    .where(eq(sessions.id, principal.sessionId));
  return { message: 'Logged out successfully.' };
}

export async function updateProfile(
  deps: AuthDeps,
  principal: Extract<Principal, { kind: 'user' }>,
  input: z.output<typeof UpdateProfileRequest>,
): Promise<UserProfile> {
  const { user } = principal;
  if (input.email !== undefined) await requireCurrentPassword(deps, principal, input.currentPassword ?? '');
  const now = deps.clock.now();
  const emailChanges = input.email !== undefined && input.email !== user.email;
  try {
    return await deps.database.db.transaction(async (tx) => {
      const [updated] = await tx
        .update(users)
        .set({
          ...(input.fullName !== undefined && { fullName: input.fullName }),
          ...(input.language !== undefined && { language: input.language }),
          // A new address is unproven, and codes sent before it can no longer be used (decisions 0197, 0198).
          ...(emailChanges && { email: input.email, emailVerifiedAt: null }),
          updatedAt: now,
        })
        .where(eq(users.id, user.id))
        .returning();
      if (emailChanges) await voidOpenCodes(tx, user.id, now);
      return userProfile(tx, updated!, now, principal.sessionId);
    });
  } catch (error) {
    throw duplicateAccountError(error) ?? error;
  }
}

/** Re-authentication for account-taking changes (password, email), throttled like sign-in on the account. */
export async function requireCurrentPassword(
  deps: AuthDeps,
  principal: Principal,
  currentPassword: string,
): Promise<void> {
  const account = principal.kind === 'user' ? principal.user : principal.agent;
  const valid = await guardedPasswordCheck(
    deps.database.db,
    () => deps.clock.now(),
    { accountKey: `password:${principal.kind}:${account.id}` },
    () => verifyPassword(account.passwordHash, currentPassword),
  );
  if (!valid) {
    // Not 401: the session is fine, only the typed password is wrong.
    throw new AppError('bad_request', 'Current password is incorrect.', {
      issues: [{ path: 'currentPassword', message: 'Current password is incorrect.' }],
    });
  }
}

/**
 * A subscriber or an agent (replacing the password the admin generated) changes the password: every other session
 * ends, and a subscriber's open codes die (decision 0198).
 */
export async function changePassword(
  deps: AuthDeps,
  principal: Principal,
  input: z.output<typeof ChangePasswordRequest>,
): Promise<{ message: string }> {
  await requireCurrentPassword(deps, principal, input.currentPassword);
  const passwordHash = await hashPassword(input.newPassword);
  const now = deps.clock.now();
  const subject = { kind: principal.kind, id: principal.kind === 'user' ? principal.user.id : principal.agent.id };
  await deps.database.db.transaction(async (tx) => {
    if (subject.kind === 'user') {
      await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, subject.id));
      await voidOpenCodes(tx, subject.id, now);
    } else {
      await tx.update(agents).set({ passwordHash, updatedAt: now }).where(eq(agents.id, subject.id));
    }
    await revokeSessions(tx, subject, now, 'password_changed', principal.sessionId);
  });
  return { message: 'Password changed successfully.' };
}
