import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/client.ts';
import { agents, parentalPins, sessions, users } from '../../db/schema.ts';
import type { Principal } from '../../http/principal.ts';
import type { SessionClaims } from './tokens.ts';

export type Subject = { kind: 'user'; id: string } | { kind: 'agent'; id: string };

const subjectColumn = (subject: Subject) =>
  subject.kind === 'user' ? eq(sessions.userId, subject.id) : eq(sessions.agentId, subject.id);

/** Ends every live session of a subject, except `keepSessionId` when given. */
export async function revokeSessions(
  exec: Executor,
  subject: Subject,
  now: Date,
  reason: string,
  keepSessionId?: string,
): Promise<void> {
  await exec
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(
      and(
        subjectColumn(subject),
        isNull(sessions.revokedAt),
        keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
      ),
    );
}

/**
 * Single-device sign-in: locks the subject's row so concurrent sign-ins queue up, ends every
 * other live session, then opens this one — all in the caller's transaction.
 */
export async function startSession(
  tx: Tx,
  subject: Subject,
  device: { deviceId: string; userAgent: string | null },
  expiresAt: Date,
  now: Date,
): Promise<{ id: string; deviceId: string }> {
  if (subject.kind === 'user')
    await tx.select({ id: users.id }).from(users).where(eq(users.id, subject.id)).for('update');
  else await tx.select({ id: agents.id }).from(agents).where(eq(agents.id, subject.id)).for('update');
  await revokeSessions(tx, subject, now, 'signed_in_elsewhere');
  const [row] = await tx
    .insert(sessions)
    .values({
      userId: subject.kind === 'user' ? subject.id : null,
      agentId: subject.kind === 'agent' ? subject.id : null,
      deviceId: device.deviceId,
      userAgent: device.userAgent,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
    })
    .returning({ id: sessions.id, deviceId: sessions.deviceId });
  return row!;
}

const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

/** The principal behind a verified token, or null when its session is no longer live. */
export async function loadPrincipal(exec: Executor, claims: SessionClaims, now: Date): Promise<Principal | null> {
  // The session, its account and the account's parental PIN setting in one round trip: every authenticated request
  // starts here, and the library and every grant filter by the PIN.
  const [row] = await exec
    .select({ session: sessions, user: users, agent: agents, pinHides: parentalPins.hides })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .leftJoin(agents, eq(agents.id, sessions.agentId))
    .leftJoin(parentalPins, eq(parentalPins.userId, sessions.userId))
    .where(eq(sessions.id, claims.sessionId));
  if (!row) return null;
  const { session, user, agent, pinHides } = row;
  if (session.revokedAt || session.expiresAt <= now) return null;

  let principal: Principal | null = null;
  if (claims.kind === 'user' && session.userId === claims.subjectId) {
    if (user) {
      const parental = pinHides ? { hides: pinHides, unlockedUntil: session.parentalUnlockedUntil } : null;
      principal = { kind: 'user', sessionId: session.id, deviceId: session.deviceId, user, parental };
    }
  } else if (claims.kind === 'agent' && session.agentId === claims.subjectId) {
    if (agent?.isActive) principal = { kind: 'agent', sessionId: session.id, deviceId: session.deviceId, agent };
  }
  if (principal && now.getTime() - session.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
    await exec.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, session.id));
  }
  return principal;
}
