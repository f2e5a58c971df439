import type { Subscriber } from '@filamu/shared';

/** Who a support dialog is about, under its title: 'Grace Nakato · grace@example.com'. */
export const subscriberLine = (subscriber: Subscriber | null) =>
  subscriber ? `${subscriber.full_name || 'No Name Provided'} · ${subscriber.email}` : undefined;
