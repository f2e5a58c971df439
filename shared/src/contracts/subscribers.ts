import { defineContract } from '../contract.ts';
import { IdParams, Message } from '../schemas/common.ts';
import {
  GrantRedownloadRequest,
  GrantRedownloadResponse,
  ManageSubscriptionRequest,
  ManageSubscriptionResponse,
  ResetSubscriberPasswordResponse,
  SubscriberList,
  SubscriberListQuery,
  SupportContext,
  SupportHistory,
} from '../schemas/subscribers.ts';

const tag = 'Subscribers';

export const listSubscribers = defineContract({
  method: 'get',
  path: '/admin/subscribers',
  summary: 'User accounts with their subscription, newest first; optional search (name, email, phone) and paging',
  tag,
  access: 'admin',
  query: SubscriberListQuery,
  response: SubscriberList,
});

export const deleteSubscriber = defineContract({
  method: 'delete',
  path: '/admin/subscribers/:id',
  summary: 'Delete a user: ends their sessions, keeps their payments (anonymised)',
  tag,
  access: 'admin',
  params: IdParams,
  response: Message,
});

export const manageSubscription = defineContract({
  method: 'put',
  path: '/admin/subscribers/:id/manage-subscription',
  summary: 'Activate or extend a subscription on a plan, or deactivate it',
  tag,
  access: 'admin',
  params: IdParams,
  body: ManageSubscriptionRequest,
  response: ManageSubscriptionResponse,
});

export const grantRedownload = defineContract({
  method: 'post',
  path: '/admin/subscribers/:id/redownloads',
  summary:
    'Grant the user one extra re-download of a movie they completed before, kept until used; an optional note goes in their history and an SMS to a proven phone',
  tag,
  access: 'admin',
  params: IdParams,
  body: GrantRedownloadRequest,
  response: GrantRedownloadResponse,
});

export const resetSubscriberPassword = defineContract({
  method: 'post',
  path: '/admin/subscribers/:id/reset-password',
  summary:
    'Generate a new password for the user (shown once, and sent by SMS to a proven phone) and end every session of the account',
  tag,
  access: 'admin',
  params: IdParams,
  response: ResetSubscriberPasswordResponse,
});

export const subscriberSupportContext = defineContract({
  method: 'get',
  path: '/admin/subscribers/:id/support-context',
  summary: "A person's downloads and re-downloads this month, their allowance, phone and recent movies, for support",
  tag,
  access: 'admin',
  params: IdParams,
  response: SupportContext,
});

export const subscriberHistory = defineContract({
  method: 'get',
  path: '/admin/subscribers/:id/history',
  summary: 'What admins did for the person (re-downloads granted, password resets), newest first, with their notes',
  tag,
  access: 'admin',
  params: IdParams,
  response: SupportHistory,
});
