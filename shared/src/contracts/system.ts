import { defineContract } from '../contract.ts';
import { AppMeta, Health } from '../schemas/system.ts';

export const health = defineContract({
  method: 'get',
  path: '/health',
  summary: 'Liveness and database reachability',
  tag: 'System',
  access: 'public',
  response: Health,
});

export const meta = defineContract({
  method: 'get',
  path: '/meta',
  summary: 'Flags the app needs before it renders (maintenance mode)',
  tag: 'System',
  access: 'public',
  response: AppMeta,
});
