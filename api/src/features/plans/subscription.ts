import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { subscriptionPlans, users } from '../../db/schema.ts';

export type PlanRow = typeof subscriptionPlans.$inferSelect;

/**
 * Puts a user on a plan from `now` until the plan's global expiry: every subscriber of a plan ends at
 * that one moment (product §3). Used by payment activation and by admins; run it in the caller's transaction.
 */
export async function activateSubscription(exec: Executor, userId: string, plan: PlanRow, now: Date): Promise<void> {
  await exec
    .update(users)
    .set({
      subscriptionPlanId: plan.id,
      subscriptionStartDate: now,
      subscriptionEndDate: plan.globalExpiryAt,
      updatedAt: now,
    })
    .where(eq(users.id, userId));
}

/** Ends a subscription now; the plan stays recorded as the last one held. */
export async function deactivateSubscription(exec: Executor, userId: string, now: Date): Promise<void> {
  await exec.update(users).set({ subscriptionEndDate: now, updatedAt: now }).where(eq(users.id, userId));
}

/** A plan can be bought while it is active, visible and its expiry is still ahead. */
export function isPurchasable(plan: PlanRow, now: Date): boolean {
  return plan.isActive && plan.isVisible && now < plan.globalExpiryAt;
}
