import { z } from 'zod';
import { Id, IsoDateTime } from './common.ts';

export const Subscriber = z.object({
  id: z.string(),
  email: z.string(),
  full_name: z.string(),
  phone: z.string().nullable(),
  issubscribed: z.boolean(),
  subscription_plan: z.string().nullable(),
  subscription_plan_id: z.string().nullable(),
  subscription_start_date: IsoDateTime.nullable(),
  subscription_end_date: IsoDateTime.nullable(),
  is_admin: z.boolean(),
  /** The one configured admin: it cannot be managed or deleted. */
  is_protected: z.boolean(),
  /** Re-downloads an admin granted that the person has not used yet. */
  extra_redownloads: z.number().int(),
  created_at: IsoDateTime,
});
export type Subscriber = z.infer<typeof Subscriber>;

export const SUBSCRIBER_PAGE_SIZE_MAX = 100;

/** Optional filters (decision 0055): without `pageSize` the whole list comes back, as before. */
export const SubscriberListQuery = z.object({
  /** Case-insensitive substring of the name, email or phone. */
  search: z.string().trim().max(100).optional(),
  /** 1-based. */
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(SUBSCRIBER_PAGE_SIZE_MAX).optional(),
});
export type SubscriberListQuery = z.input<typeof SubscriberListQuery>;

export const SubscriberList = z.object({
  subscribers: z.array(Subscriber),
  /** Users matching the search, on all pages. */
  total: z.number().int(),
  page: z.number().int(),
  /** Null when the whole list was asked for. */
  pageSize: z.number().int().nullable(),
});

export const ManageSubscriptionRequest = z.discriminatedUnion(
  'action',
  [
    z.object({
      action: z.literal('activate_extend'),
      subscription_plan_id: Id.or(z.literal('')).refine((v) => v !== '', 'Please select a subscription plan.'),
    }),
    z.object({ action: z.literal('deactivate') }),
  ],
  { message: 'Action must be activate_extend or deactivate.' },
);
export type ManageSubscriptionRequest = z.input<typeof ManageSubscriptionRequest>;

export const ManageSubscriptionResponse = z.object({ message: z.string(), subscriber: Subscriber });

export const GrantRedownloadResponse = z.object({ message: z.string(), subscriber: Subscriber });

/** The new password is in this answer only: it is never stored in clear nor sent anywhere (decision 0155). */
export const ResetSubscriberPasswordResponse = z.object({ message: z.string(), newPassword: z.string() });
export type ResetSubscriberPasswordResponse = z.infer<typeof ResetSubscriberPasswordResponse>;
