import { defineContract } from '../contract.ts';
import { NightBundle, TonightQueue } from '../schemas/night-bundle.ts';

export { adminNightBundle, adminSetNightBundle } from './admin-night-bundle.ts';

const tag = 'Night bundle';

export const nightBundle = defineContract({
  method: 'get',
  path: '/settings/night-bundle',
  summary:
    "Night bundle hours: the day and night price of 1 GB (UGX), the windows (Kampala time) and, by the server's clock, the window open now and the next one",
  tag,
  access: 'public',
  response: NightBundle,
});

export const myTonight = defineContract({
  method: 'get',
  path: '/users/me/tonight',
  summary: "The films this person queued for tonight's night window (the server's copy, for the window-start push)",
  tag,
  access: 'user',
  response: TonightQueue,
});

export const setMyTonight = defineContract({
  method: 'put',
  path: '/users/me/tonight',
  summary:
    'Replace the films queued for tonight (at most 20); unknown or unavailable films are refused. Decides who gets the push when a window opens',
  tag,
  access: 'user',
  body: TonightQueue,
  response: TonightQueue,
});
