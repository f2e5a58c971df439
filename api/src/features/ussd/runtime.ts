import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { UssdConfig } from '../../config.ts';
import { createUssdSimulator, type UssdSimulator } from './simulator.ts';

/** What the callback route accepts, and in simulator mode the gateway that calls it. */
export interface UssdRuntime {
  /** The secret the callback URL must carry; null ⇒ USSD is off (production with no gateway): the route is not found. */
  callbackSecret: string | null;
  simulator: UssdSimulator | null;
}

/**
 * With USSD_CALLBACK_SECRET, the real gateway's callback. Otherwise, where configuration allows it, the simulator: it
 * calls the same route in process with a secret made now, which never leaves the process (decision 0249).
 */
export function configuredUssdRuntime(config: UssdConfig, logger: Logger): UssdRuntime {
  if (config.callbackSecret) return { callbackSecret: config.callbackSecret, simulator: null };
  if (!config.simulator) return { callbackSecret: null, simulator: null };
  const secret = randomBytes(32).toString('base64url');
  return { callbackSecret: secret, simulator: createUssdSimulator({ secret, logger }) };
}
