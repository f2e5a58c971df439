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
  created_at: IsoDateTime,
});
export type Subscriber = z.infer<typeof Subscriber>;

export const SubscriberList = z.object({ subscribers: z.array(Subscriber) });

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
