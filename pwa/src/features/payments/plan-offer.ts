import {
  formatDate,
  formatDateTime,
  formatUgx,
  planChange,
  timeLeft,
  type CustomerPlan,
  type HeldSubscription,
  type PlanChange,
  type UserProfile,
} from '@filamu/shared';
import { paymentsT } from './messages.ts';

/** The subscription the profile says is in force, if any. */
export function heldSubscription(user: UserProfile | null | undefined): HeldSubscription | null {
  if (!user?.isSubscribed || !user.subscriptionPlan || !user.subscription_end_date) return null;
  return { planName: user.subscriptionPlan, endsAt: new Date(user.subscription_end_date) };
}

/** What buying `plan` would do for this person (the rule the server enforces, docs/decisions/0026). */
export function planOffer(plan: CustomerPlan, user: UserProfile | null | undefined, now = new Date()): PlanChange {
  return planChange({ planName: plan.plan_name, expiresAt: new Date(plan.expires_at) }, heldSubscription(user), now);
}

/**
 * What is left of a plan without "left" (`12 days 5 hours`, `less than an hour`), or null once it ended; the words of
 * the shared `formatTimeLeft`, in the language on screen. Never rounded up.
 */
function timeSpan(end: Date, now: Date): string | null {
  const { days, hours, ms } = timeLeft(end, now);
  if (ms <= 0) return null;
  if (days === 0 && hours === 0) return paymentsT('payments.time.lessThanHour');
  const dayWords = paymentsT('payments.time.days', { count: days });
  const hourWords = paymentsT('payments.time.hours', { count: hours });
  if (days === 0) return hourWords;
  if (hours === 0) return dayWords;
  return paymentsT('payments.time.daysHours', { days: dayWords, hours: hourWords });
}

/** `12 days 5 hours left`, `less than an hour left` or `ended`, in the language on screen. */
function timeLeftWords(end: Date, now: Date): string {
  const span = timeSpan(end, now);
  return span === null ? paymentsT('payments.time.ended') : paymentsT('payments.time.left', { span });
}

/** "Access until 25 Nov 2026, 2:00 AM (Kampala) · 12 hours left": the plan's one end, for everyone on it. */
export function accessLine(plan: CustomerPlan, now = new Date()): string {
  return paymentsT('payments.plan.accessLine', {
    date: formatDateTime(plan.expires_at),
    left: timeLeftWords(new Date(plan.expires_at), now),
  });
}

/**
 * The warning a buyer reads before paying for a plan near its end (from the operator's threshold, decision 0176);
 * null while plenty is left.
 */
export function shortPlanWarning(plan: CustomerPlan, now = new Date()): string | null {
  // A payment saved in the tab before plans told their warning moment has none: nothing to warn of.
  if (!plan.warn_from || now < new Date(plan.warn_from)) return null;
  const span = timeSpan(new Date(plan.expires_at), now) ?? paymentsT('payments.time.ended');
  return paymentsT('payments.plan.shortWarning', {
    span,
    date: formatDateTime(plan.expires_at),
    price: formatUgx(plan.price_ugx),
  });
}
/** What happens to the current plan, said on the card and at checkout; null for someone without one. */
export function changeNote(change: PlanChange): string | null {
  switch (change.kind) {
    case 'replaces':
      return paymentsT('payments.change.replaces', {
        plan: change.current.planName,
        date: formatDate(change.current.endsAt),
      });
    case 'current':
      return paymentsT('payments.change.current', { date: formatDate(change.current.endsAt) });
    case 'ends-earlier':
      return paymentsT('payments.change.endsEarlier', {
        plan: change.current.planName,
        date: formatDate(change.current.endsAt),
      });
    default:
      return null;
  }
}

/** The purchase button's words for each case. */
export function offerLabel(change: PlanChange): string {
  if (change.kind === 'current') return paymentsT('payments.offer.current');
  if (change.kind === 'ends-earlier') return paymentsT('payments.offer.endsEarlier');
  return paymentsT('payments.offer.subscribe');
}
