import { PLAN_WITHOUT_MOVIES, planChange, planChangeRefusal, STAFF_NEED_NO_PLAN } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { subscriptionPlans } from '../../db/schema.ts';
import { conflict, forbidden } from '../../http/errors.ts';
import type { Principal, UserRow } from '../../http/principal.ts';
import { planHasActiveMovie } from '../plans/plan-movies.ts';
import type { PlanRow } from '../plans/subscription.ts';

/**
 * Who may pay, and for what (docs/decisions/0026). Agents have nothing to pay for: every payments route
 * answers them 403 with the reason, never 401, which would sign them out of the app.
 */
export function payingUser(principal: Principal): UserRow {
  if (principal.kind !== 'user') throw forbidden(STAFF_NEED_NO_PLAN.agent);
  return principal.user;
}

/** Admins may look at payments but never start one; a plan that would only shorten access is refused (409). */
export async function assertMayBuy(exec: Executor, user: UserRow, plan: PlanRow, now: Date): Promise<void> {
  if (user.isAdmin) throw forbidden(STAFF_NEED_NO_PLAN.admin);
  if (!user.subscriptionPlanId || !user.subscriptionEndDate) return;
  const [held] = await exec
    .select({ planName: subscriptionPlans.planName })
    .from(subscriptionPlans)
    .where(eq(subscriptionPlans.id, user.subscriptionPlanId));
  const wanted = { planName: plan.planName, expiresAt: plan.globalExpiryAt };
  const current = held ? { planName: held.planName, endsAt: user.subscriptionEndDate } : null;
  // The held plan is compared by id as well as by name: two plans may share a name.
  const change =
    user.subscriptionPlanId === plan.id && current && now < current.endsAt
      ? ({ kind: 'current', current } as const)
      : planChange(wanted, current, now);
  const refusal = planChangeRefusal(change, wanted);
  if (refusal) throw conflict(refusal);
}

/**
 * A plan with no active movie has nothing to download: it is not sold (409), and a payment started before it
 * lost its movies sends no more prompts. A payment already made is honoured: the person paid (decision 0118).
 */
export async function assertHasMovies(exec: Executor, planId: string): Promise<void> {
  if (!(await planHasActiveMovie(exec, planId))) throw conflict(PLAN_WITHOUT_MOVIES);
}
