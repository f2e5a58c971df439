import type { Logger } from 'pino';
import type { SmsConfig } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { africasTalkingGateway, type SmsGateway } from './adapter.ts';
import { AT_MESSAGING_PATH } from './protocol.ts';
import {
  createSmsSimulator,
  SMS_SIMULATOR_API_KEY,
  SMS_SIMULATOR_USERNAME,
  type SmsSimulator,
  type SmsSimulatorOptions,
} from './simulator.ts';

/** The gateway the outbox sends through, and without an Africa's Talking account the simulator behind it. */
export interface SmsRuntime {
  gateway: SmsGateway;
  simulator: SmsSimulator | null;
}

/**
 * Simulator mode: the real adapter, speaking the real protocol (Request in, Response out) to this process's own
 * simulator. In process rather than over the network, so on several replicas each one's inbox holds what its own
 * dispatcher sent, and no public URL or port has to be known (decision 0146).
 */
export function simulatorRuntime(
  clock: Clock,
  logger: Logger,
  options: Omit<SmsSimulatorOptions, 'clock' | 'logger'> & { timeoutMs: number },
): SmsRuntime {
  const simulator = createSmsSimulator({ clock, logger, ...options });
  const gateway = africasTalkingGateway({
    url: `http://simulator${AT_MESSAGING_PATH}`,
    username: SMS_SIMULATOR_USERNAME,
    apiKey: SMS_SIMULATOR_API_KEY,
    from: 'Filamu',
    timeoutMs: options.timeoutMs,
    fetch: async (request) => simulator.app.fetch(request),
  });
  return { gateway, simulator };
}

export function configuredSmsRuntime(config: SmsConfig, clock: Clock, logger: Logger): SmsRuntime {
  const at = config.africasTalking;
  if (at) {
    return {
      gateway: africasTalkingGateway({
        url: at.url,
        username: at.username,
        apiKey: at.apiKey,
        from: at.senderId,
        timeoutMs: config.timeoutMs,
      }),
      simulator: null,
    };
  }
  return simulatorRuntime(clock, logger, { timeoutMs: config.timeoutMs });
}
