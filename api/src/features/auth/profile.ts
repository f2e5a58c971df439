import { AGENT_PLAN_LABEL, type AgentProfile, type UserProfile, daysRemaining } from '@filamu/shared';
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { sessions, subscriptionPlans } from '../../db/schema.ts';
import { parentalPinStatus } from './parental-status.ts';
import type { AgentRow, UserRow } from '../../http/principal.ts';
import { describeUserAgent } from './user-agent.ts';

/** Subscribed is derived from the end date, never stored. */
export function isSubscribed(user: Pick<UserRow, 'subscriptionEndDate'>, now: Date): boolean {
  return user.subscriptionEndDate !== null && now < user.subscriptionEndDate;
}

/**
 * The user's profile as the API returns it. `currentSessionId` is the session asking (or just opened):
 * its device is described in `currentDevice`; without it `currentDevice` is null.
 */
export async function userProfile(
  exec: Executor,
  user: UserRow,
  now: Date,
  currentSessionId?: string,
): Promise<UserProfile> {
  const [plan] = user.subscriptionPlanId
    ? await exec
        .select({ name: subscriptionPlans.planName, features: subscriptionPlans.features })
        .from(subscriptionPlans)
        .where(eq(subscriptionPlans.id, user.subscriptionPlanId))
    : [];
  const devices = await exec
    .select({
      id: sessions.id,
      deviceId: sessions.deviceId,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(asc(sessions.createdAt));
  const subscribed = isSubscribed(user, now);
  const parentalPin = await parentalPinStatus(exec, user.id, currentSessionId, now);
  const current = devices.find((d) => d.id === currentSessionId);
  return {
    kind: 'user',
    id: user.id,
    email: user.email,
    fullName: user.fullName,
    phone: user.phone,
    phoneVerified: user.phone !== null && user.phoneVerifiedAt !== null,
    isAdmin: user.isAdmin,
    isSubscribed: subscribed,
    subscriptionPlan: plan?.name ?? null,
    subscriptionPlanFeatures: plan?.features ?? [],
    subscription_start_date: user.subscriptionStartDate?.toISOString() ?? null,
    subscription_end_date: user.subscriptionEndDate?.toISOString() ?? null,
    daysRemaining: user.subscriptionEndDate ? daysRemaining(user.subscriptionEndDate, now) : null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
    deviceIDs: devices.map((d) => d.deviceId),
    currentDevice: current
      ? {
          ...describeUserAgent(current.userAgent),
          signedInAt: current.createdAt.toISOString(),
          lastActiveAt: current.lastSeenAt.toISOString(),
        }
      : null,
    parentalPin,
    language: user.language,
  };
}

export function agentProfile(agent: AgentRow): AgentProfile {
  return {
    kind: 'agent',
    id: agent.id,
    email: agent.email,
    full_name: agent.fullName,
    phone: agent.phone,
    isAdmin: false,
    isSubscribed: true,
    subscriptionPlan: AGENT_PLAN_LABEL,
    createdAt: agent.createdAt.toISOString(),
    updatedAt: agent.updatedAt.toISOString(),
  };
}
