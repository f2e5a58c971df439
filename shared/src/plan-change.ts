import { formatDate } from './format.ts';

/**
 * What buying a plan does to the subscription a person already has (docs/decisions/0026). Every plan ends at
 * its own fixed moment and a purchase puts the person on the new plan from now until that moment, so the
 * days left on the old plan are not carried over. A plan that would end on or before the current end date
 * could only take days away and is not sold; the plan the person holds is their "Current Plan".
 */
export interface HeldSubscription {
  planName: string;
  endsAt: Date;
}

export type PlanChange =
  /** No subscription in force: the plan simply starts. */
  | { kind: 'new' }
  /** Ends later than the current plan, which it replaces now. */
  | { kind: 'replaces'; current: HeldSubscription }
  /** The plan the person holds. */
  | { kind: 'current'; current: HeldSubscription }
  /** Another plan ending on or before the current one: buying it would only lose days. */
  | { kind: 'ends-earlier'; current: HeldSubscription };

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function planChange(
  plan: { planName: string; expiresAt: Date },
  current: HeldSubscription | null,
  now: Date,
): PlanChange {
  if (!current || current.endsAt.getTime() <= now.getTime()) return { kind: 'new' };
  if (plan.expiresAt.getTime() > current.endsAt.getTime()) return { kind: 'replaces', current };
  if (sameName(plan.planName, current.planName)) return { kind: 'current', current };
  return { kind: 'ends-earlier', current };
}

/** Why a plan cannot be bought, in the server's 409 and beside the card; null when it can. */
export function planChangeRefusal(change: PlanChange, plan: { planName: string; expiresAt: Date }): string | null {
  switch (change.kind) {
    case 'current':
      return `You already have the ${plan.planName} plan until ${formatDate(change.current.endsAt)}.`;
    case 'ends-earlier':
      return (
        `${plan.planName} ends on ${formatDate(plan.expiresAt)}, on or before your ${change.current.planName} plan ` +
        `(until ${formatDate(change.current.endsAt)}). Buying it would only shorten your access.`
      );
    default:
      return null;
  }
}

/** Staff never buy a plan (product §6: agents count as subscribed; admins have full access). */
export const STAFF_NEED_NO_PLAN = {
  agent: 'Agents have full access to the library — no subscription needed.',
  admin: 'Admins have full access to the library — no subscription needed.',
} as const;
