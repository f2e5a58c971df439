import type { Context } from 'hono';
import type { Logger } from 'pino';
import { trimTrailingSlashes } from '@filamu/shared';
import type { PaymentsConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { clientIp } from '../auth/client-ip.ts';
import { createDpoGateway } from './dpo/adapter.ts';
import { type GatewayExchange, type PaymentGateway } from './dpo/port.ts';
import { createDpoSandbox, DPO_SANDBOX_COMPANY_TOKEN, type DpoSandbox } from './dpo/sandbox.ts';

/** Where the app mounts the DPO simulator in sandbox mode. */
export const SANDBOX_MOUNT = '/sandbox/dpo/API/v6';

/** The gateway the payments feature talks to, and in sandbox mode the simulator behind it. */
export interface PaymentsRuntime {
  gateway: PaymentGateway;
  sandbox: DpoSandbox | null;
  /** Sandbox mode: where the simulator's push (DPO's pushPayments) goes; set once the app's deps exist. */
  bindNotify(handler: (transToken: string) => Promise<void>): void;
}

/**
 * Every DPO exchange is logged with its raw answer (R18); the adapter has already redacted the company token and
 * masked the payer's phone, name and email.
 */
export function exchangeLogger(logger: Logger) {
  return (exchange: GatewayExchange) => {
    const level = exchange.error || (exchange.httpStatus ?? 200) >= 500 ? 'warn' : 'info';
    logger[level](
      {
        dpo: {
          operation: exchange.operation,
          attempt: exchange.attempt,
          durationMs: exchange.durationMs,
          httpStatus: exchange.httpStatus,
          response: exchange.responseXml,
          error: exchange.error,
        },
      },
      'dpo exchange',
    );
  };
}

/** The real DPO adapter pointed at `apiUrl` with `companyToken`, configured from the environment. */
function dpoGateway(
  config: PaymentsConfig,
  clock: Clock,
  logger: Logger,
  target: { apiUrl: string; companyToken: string },
): PaymentGateway {
  return createDpoGateway({
    apiUrl: target.apiUrl,
    companyToken: target.companyToken,
    serviceType: config.dpoServiceType,
    ptlMinutes: config.ptlMinutes,
    timeoutMs: config.timeoutMs,
    // One retry for network errors, timeouts and 5xx only — for ChargeTokenMobile only when the request never left
    // (RETRY_POLICY, decision 0086); DPO answers (any code) are never retried.
    retries: 1,
    clock,
    onExchange: exchangeLogger(logger),
  });
}

/**
 * Sandbox mode: the DPO simulator, and the real adapter speaking real HTTP to it at `apiUrl`
 * (normally `<PUBLIC_URL or http://127.0.0.1:PORT>/sandbox/dpo/API/v6/`, where the app mounts it).
 * The simulator keeps its state in `database`, so every replica sees one gateway (decision 0088); its push calls the
 * bound handler of the replica that saw the payment land (the same function the notify route runs).
 */
export function sandboxRuntime(
  config: PaymentsConfig,
  clock: Clock,
  logger: Logger,
  options: {
    apiUrl: string;
    database: Database;
    settleIntervalMs?: number;
    /** Turns on the simulator's per-address rate limit (the app's mount; tests' loopback sandboxes leave it off). */
    clientAddress?: (c: Context) => string;
  },
): PaymentsRuntime {
  let notify: ((transToken: string) => Promise<void>) | null = null;
  const sandbox = createDpoSandbox({
    clock,
    database: options.database,
    companyToken: DPO_SANDBOX_COMPANY_TOKEN,
    paymentDelayMs: config.sandboxPaymentDelayMs,
    settleIntervalMs: options.settleIntervalMs,
    clientAddress: options.clientAddress,
    notify: async (transToken) => {
      if (notify) await notify(transToken);
    },
  });
  const gateway = dpoGateway(config, clock, logger, {
    apiUrl: options.apiUrl,
    companyToken: DPO_SANDBOX_COMPANY_TOKEN,
  });
  return {
    gateway,
    sandbox,
    bindNotify: (handler) => {
      notify = handler;
    },
  };
}

/** From the configuration: DPO itself when DPO_COMPANY_TOKEN is set, otherwise the sandbox the app mounts. */
export function configuredPaymentsRuntime(
  config: { payments: PaymentsConfig; publicUrl: string | null; port: number; trustProxy: boolean },
  clock: Clock,
  logger: Logger,
  database: Database,
): PaymentsRuntime {
  const payments = config.payments;
  if (payments.dpoCompanyToken) {
    return {
      gateway: dpoGateway(payments, clock, logger, {
        apiUrl: payments.dpoApiUrl,
        companyToken: payments.dpoCompanyToken,
      }),
      sandbox: null,
      bindNotify: () => {},
    };
  }
  const base = trimTrailingSlashes(config.publicUrl ?? `http://127.0.0.1:${config.port}`);
  return sandboxRuntime(payments, clock, logger, {
    apiUrl: `${base}${SANDBOX_MOUNT}/`,
    database,
    clientAddress: (c) => clientIp(c, config.trustProxy),
  });
}
