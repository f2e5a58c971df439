import { defineContract } from '../contract.ts';
import { PushPublicKey, PushSubscribed, PushSubscriptionBody, PushUnsubscribeBody } from '../schemas/push.ts';

export const publicKey = defineContract({
  method: 'get',
  path: '/push/public-key',
  summary: "The server's VAPID public key, for PushManager.subscribe",
  tag: 'Push',
  access: 'public',
  response: PushPublicKey,
});

export const subscribe = defineContract({
  method: 'post',
  path: '/push/subscriptions',
  summary: "Keeps this browser's push subscription for the signed-in person (the same endpoint again updates it)",
  tag: 'Push',
  access: 'user',
  body: PushSubscriptionBody,
  response: PushSubscribed,
  status: 201,
});

export const unsubscribe = defineContract({
  method: 'delete',
  path: '/push/subscriptions',
  summary: "Forgets this browser's push subscription (notifications off); idempotent",
  tag: 'Push',
  access: 'user',
  body: PushUnsubscribeBody,
  response: PushSubscribed,
});
