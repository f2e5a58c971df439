import { defineContract } from '../contract.ts';
import {
  AdminSystemStatus,
  AppMeta,
  Health,
  Liveness,
  Readiness,
  SimulatedSmsList,
  SimulatedSmsQuery,
} from '../schemas/system.ts';

export const health = defineContract({
  method: 'get',
  path: '/health',
  summary: 'Liveness and database reachability',
  tag: 'System',
  access: 'public',
  response: Health,
});

export const live = defineContract({
  method: 'get',
  path: '/health/live',
  summary: 'Liveness: 200 while the process serves (restart it when this fails)',
  tag: 'System',
  access: 'public',
  response: Liveness,
});

export const ready = defineContract({
  method: 'get',
  path: '/health/ready',
  summary: 'Readiness: 200 when the database answers and the process is not shutting down, 503 otherwise',
  tag: 'System',
  access: 'public',
  response: Readiness,
});

export const meta = defineContract({
  method: 'get',
  path: '/meta',
  summary: 'Flags the app needs before it renders (maintenance mode)',
  tag: 'System',
  access: 'public',
  response: AppMeta,
});

export const adminStatus = defineContract({
  method: 'get',
  path: '/admin/system',
  summary: 'How this server runs, for the admin console: whether payments are the sandbox (no real money)',
  tag: 'System',
  access: 'admin',
  response: AdminSystemStatus,
});

export const smsSimulatorMessages = defineContract({
  method: 'get',
  path: '/admin/sms-simulator/messages',
  summary: 'SMS simulator mode only: the last text messages it received, newest first (404 with a real gateway)',
  tag: 'System',
  access: 'admin',
  query: SimulatedSmsQuery,
  response: SimulatedSmsList,
});
