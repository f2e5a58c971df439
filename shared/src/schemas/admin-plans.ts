// The admin console's side of plans: the plan form, the plan as admins list it and the operator's sale settings. Kept
// apart from the plans a customer reads (./plans.ts) so a phone never builds these schemas (decision 0241).
import { z } from 'zod';
import { dateToKampalaLocal, kampalaLocalToDate } from '../kampala-time.ts';
import { Id, IsoDateTime } from './common.ts';
import {
  LOCAL_DATE_TIME_MIN_YEAR,
  LOCAL_DATE_TIME_PATTERN,
  PLAN_MOVIES_MAX,
  PLAN_SALE_CUTOFF_HOURS_MAX,
  PLAN_WARNING_HOURS_MAX,
} from './plans.ts';

export const LocalDateTime = z
  .string({ message: 'Expiry date and time are required.' })
  .max(16, 'Use the form YYYY-MM-DDThh:mm (Kampala time).')
  .regex(LOCAL_DATE_TIME_PATTERN, 'Use the form YYYY-MM-DDThh:mm (Kampala time).')
  // The pattern lets 2026-02-31 through; a real calendar date reads back unchanged.
  .refine(
    (value) => !LOCAL_DATE_TIME_PATTERN.test(value) || dateToKampalaLocal(kampalaLocalToDate(value)) === value,
    'That date does not exist.',
  )
  // The pattern allows year 0000, which Postgres cannot store (a 500 before); no plan ends before 2000 (decision 0091).
  .refine(
    (value) => !LOCAL_DATE_TIME_PATTERN.test(value) || Number(value.slice(0, 4)) >= LOCAL_DATE_TIME_MIN_YEAR,
    `Choose a date in the years ${LOCAL_DATE_TIME_MIN_YEAR}–9999.`,
  );

/** The movies a plan includes, replacing the ones it had; an empty list leaves it with none. */
const MovieIds = z
  .array(Id, { message: 'movieIds must be a list of movie ids.' })
  .max(PLAN_MOVIES_MAX, `A plan can include at most ${PLAN_MOVIES_MAX} movies.`)
  .transform((ids) => [...new Set(ids)]);

const PlanFields = {
  plan_name: z
    .string({ message: 'Plan name is required.' })
    .trim()
    .min(1, 'Plan name is required.')
    .max(80, 'Plan name must be at most 80 characters.'),
  price_ugx: z
    .number({ message: 'Price is required.' })
    .int('Price must be a whole number of UGX.')
    .min(0, 'Price cannot be negative.')
    .max(100_000_000, 'Price is too large.'),
  description: z.string().trim().max(1000, 'Description must be at most 1000 characters.'),
  features: z
    .array(z.string().trim().min(1).max(200), { message: 'Features are required.' })
    .min(1, 'Add at least one feature.')
    .max(30, 'At most 30 features.'),
  is_active: z.boolean(),
  is_visible: z.boolean(),
  display_order: z.number().int('Display order must be a whole number.').min(-100_000).max(100_000),
  global_expiry_date: LocalDateTime,
  movieIds: MovieIds,
};

export const PlanInput = z.object({
  ...PlanFields,
  description: PlanFields.description.default(''),
  is_active: PlanFields.is_active.default(true),
  is_visible: PlanFields.is_visible.default(true),
  display_order: PlanFields.display_order.default(0),
  movieIds: PlanFields.movieIds.optional(),
});
export type PlanInput = z.input<typeof PlanInput>;

export const PlanUpdate = z
  .object({
    plan_name: PlanFields.plan_name.optional(),
    price_ugx: PlanFields.price_ugx.optional(),
    description: PlanFields.description.optional(),
    features: PlanFields.features.optional(),
    is_active: PlanFields.is_active.optional(),
    is_visible: PlanFields.is_visible.optional(),
    display_order: PlanFields.display_order.optional(),
    global_expiry_date: PlanFields.global_expiry_date.optional(),
    movieIds: PlanFields.movieIds.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'No changes' });
export type PlanUpdate = z.input<typeof PlanUpdate>;

/** A plan as admins see it. */
export const AdminPlan = z.object({
  id: z.string(),
  plan_name: z.string(),
  price_ugx: z.number().int(),
  description: z.string(),
  features: z.array(z.string()),
  is_active: z.boolean(),
  is_visible: z.boolean(),
  display_order: z.number().int(),
  global_expiry_date: z.string(),
  /** The same instant as an ISO timestamp. */
  expires_at: IsoDateTime,
  /** When customers stop seeing it: its end less the operator's sale cut-off (decision 0176). */
  sale_ends_at: IsoDateTime,
  subscriber_count: z.number().int(),
  /** Movies in the library the plan includes (each movie's `plan_ids` in the admin movie list says which). */
  movie_count: z.number().int(),
  /** Of those, the active ones: what a subscriber can download. A plan with none cannot be bought. */
  active_movie_count: z.number().int(),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});
export type AdminPlan = z.infer<typeof AdminPlan>;

export const AdminPlanList = z.object({ plans: z.array(AdminPlan) });
export const AdminPlanResponse = z.object({ plan: AdminPlan });

/** What the operator sets about plans near their end (decision 0176). */
export const PlanSaleSetting = z
  .object({
    planWarningHours: z
      .number({ message: 'Enter the hours before a plan ends to start warning.' })
      .int('Enter a whole number of hours.')
      .min(0, 'Hours cannot be negative.')
      .max(PLAN_WARNING_HOURS_MAX, `Warn at most ${PLAN_WARNING_HOURS_MAX} hours (30 days) before the end.`),
    planSaleCutoffHours: z
      .number({ message: 'Enter the hours before a plan ends to stop selling it.' })
      .int('Enter a whole number of hours.')
      .min(0, 'Hours cannot be negative.')
      .max(
        PLAN_SALE_CUTOFF_HOURS_MAX,
        `Stop selling at most ${PLAN_SALE_CUTOFF_HOURS_MAX} hours (7 days) before the end.`,
      ),
  })
  // A cut-off longer than the warning would stop a sale no one was warned about.
  .refine((v) => v.planWarningHours >= v.planSaleCutoffHours, {
    message: 'Start warning at least as many hours before the end as the sale stops.',
    path: ['planWarningHours'],
  });
export type PlanSaleSetting = z.infer<typeof PlanSaleSetting>;
