import { type AdminPlan, formatDate, formatUgx } from '@filamu/shared';

/** 'Monthly — UGX 25,000 — expires 31 Dec 2026' */
export const planOptionLabel = (plan: AdminPlan) =>
  `${plan.plan_name} — ${formatUgx(plan.price_ugx)} — expires ${formatDate(plan.expires_at)}`;

/** Plans a subscriber can be put on now: the server refuses an expired one (decision 0055). */
export const choosablePlans = (plans: AdminPlan[], now: Date) =>
  plans.filter((plan) => new Date(plan.expires_at).getTime() > now.getTime());
