import {
  daysRemaining,
  formatDate,
  planChange,
  type CustomerPlan,
  type HeldSubscription,
  type PlanChange,
  type UserProfile,
} from '@filamu/shared';

/** The subscription the profile says is in force, if any. */
export function heldSubscription(user: UserProfile | null | undefined): HeldSubscription | null {
  if (!user?.isSubscribed || !user.subscriptionPlan || !user.subscription_end_date) return null;
  return { planName: user.subscriptionPlan, endsAt: new Date(user.subscription_end_date) };
}

/** What buying `plan` would do for this person (the rule the server enforces, docs/decisions/0026). */
export function planOffer(plan: CustomerPlan, user: UserProfile | null | undefined, now = new Date()): PlanChange {
  return planChange({ planName: plan.plan_name, expiresAt: new Date(plan.expires_at) }, heldSubscription(user), now);
}

/** "Access until 12/31/2027 · 38 days" */
export function accessLine(plan: CustomerPlan, now = new Date()): string {
  const days = daysRemaining(new Date(plan.expires_at), now);
  return `Access until ${formatDate(plan.expires_at)} · ${days} ${days === 1 ? 'day' : 'days'}`;
}

/** What happens to the current plan, said on the card and at checkout; null for someone without one. */
export function changeNote(change: PlanChange): string | null {
  switch (change.kind) {
    case 'replaces':
      return `Replaces your ${change.current.planName} plan, which ends ${formatDate(change.current.endsAt)}. Days left on it are not carried over.`;
    case 'current':
      return `Your current plan, until ${formatDate(change.current.endsAt)}.`;
    case 'ends-earlier':
      return `Your ${change.current.planName} plan runs until ${formatDate(change.current.endsAt)}; this one would end sooner.`;
    default:
      return null;
  }
}

/** The purchase button's words for each case. */
export function offerLabel(change: PlanChange): string {
  if (change.kind === 'current') return 'Current Plan';
  if (change.kind === 'ends-earlier') return 'Ends before your current plan';
  return 'Subscribe Now';
}
