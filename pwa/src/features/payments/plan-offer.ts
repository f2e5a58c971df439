import {
  formatDate,
  formatDateTime,
  formatTimeLeft,
  formatUgx,
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

/** "Access until 25 Nov 2026, 2:00 AM (Kampala) · 12 hours left": the plan's one end, for everyone on it. */
export function accessLine(plan: CustomerPlan, now = new Date()): string {
  return `Access until ${formatDateTime(plan.expires_at)} (Kampala) · ${formatTimeLeft(new Date(plan.expires_at), now)}`;
}

/**
 * The warning a buyer reads before paying for a plan near its end (from the operator's threshold, decision 0176);
 * null while plenty is left.
 */
export function shortPlanWarning(plan: CustomerPlan, now = new Date()): string | null {
  // A payment saved in the tab before plans told their warning moment has none: nothing to warn of.
  if (!plan.warn_from || now < new Date(plan.warn_from)) return null;
  const span = formatTimeLeft(new Date(plan.expires_at), now).replace(' left', '');
  return (
    `This plan ends in ${span}, at ${formatDateTime(plan.expires_at)} for everyone on it: ` +
    `${formatUgx(plan.price_ugx)} buys ${span} of access.`
  );
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
