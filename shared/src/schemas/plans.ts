import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';

/** Kampala local date-time as the admin types it and the spec shows it: `YYYY-MM-DDThh:mm`. */
export const LOCAL_DATE_TIME_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/;

/** The earliest year a plan may end in; the four-digit pattern caps it at 9999, far inside what Postgres stores. */
export const LOCAL_DATE_TIME_MIN_YEAR = 2000;

/** The most movies one plan may list: the whole of a large library (a 10,000-movie seed) with room to grow. */
export const PLAN_MOVIES_MAX = 20_000;

/** Why a plan without active movies cannot be bought (nothing a subscriber could download). */
export const PLAN_WITHOUT_MOVIES = 'This plan has no movies yet, so it cannot be bought. Please choose another plan.';
export const UNKNOWN_PLAN_MOVIES = 'Choose movies from the library only: some of these are not in it.';

/** A plan as customers see it: price as numeric text (product §3). */
export const CustomerPlan = z.object({
  id: z.string(),
  plan_name: z.string(),
  price_ugx: z.string().regex(/^\d+$/),
  description: z.string(),
  features: z.array(z.string()),
  display_order: z.number().int(),
  global_expiry_date: z.string(),
  expires_at: IsoDateTime,
  /** The moment the plan stops being sold: its end less the operator's cut-off (equal to it when there is none). */
  sale_ends_at: IsoDateTime,
  /** From this moment cards and checkout warn that little of the plan is left (the operator's threshold). */
  warn_from: IsoDateTime,
  /** The plan has an English movie: only then do its card and checkout tell the Kinayuganda-first rule. */
  includes_english: z.boolean(),
});
export type CustomerPlan = z.infer<typeof CustomerPlan>;

export const CustomerPlanList = z.object({ plans: z.array(CustomerPlan) });
/** `movie`: only the plans that include this film (a film received from another phone shows where it is, 19/22 §3). */
export const CustomerPlansQuery = z.object({ movie: Id.optional() });
/** Most hours before a plan's end the operator may warn from: 30 days, longer than any plan is worth warning of. */
export const PLAN_WARNING_HOURS_MAX = 720;
/** Most hours before a plan's end sale may stop: a week. */
export const PLAN_SALE_CUTOFF_HOURS_MAX = 168;
export const DEFAULT_PLAN_WARNING_HOURS = 72;
export const DEFAULT_PLAN_SALE_CUTOFF_HOURS = 6;

/** Why a plan in its last hours is not sold (answered with `plan_sale_closed`). */
export const PLAN_SALE_CLOSED = (hours: number) =>
  `This plan ends in less than ${hours} ${hours === 1 ? 'hour' : 'hours'}, so it is no longer sold: you would pay the full price for a few hours. Please choose another plan.`;
