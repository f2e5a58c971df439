// What every part of the money path shares: its dependencies, the payment row, timing and the words it uses.
import { type PaymentStatus } from '@filamu/shared';
import type { Database } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { type Metrics } from '../metrics/registry.ts';
import { GatewayError } from './dpo/errors.ts';
import { type PaymentGateway } from './dpo/port.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.ts';

export interface PaymentDeps {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  payments: PaymentGateway;
  metrics: Metrics;
}

export type PaymentRow = typeof payments.$inferSelect;

/** First reconciler look at a payment, and the cap of its back-off (doubling per check). */
export const FIRST_CHECK_MS = 30_000;

const MAX_CHECK_INTERVAL_MS = 5 * 60_000;
/** How long past DPO's payment time limit a payment DPO still calls unpaid stays pending. */

export const EXPIRY_GRACE_MS = 5 * 60_000;

export const NOT_PURCHASABLE = 'This plan is not available for purchase.';

export const AMOUNT_MISMATCH = 'Amount does not match the plan price.';

const UNAVAILABLE = 'The payment service is not available right now. Please try again in a moment.';

export const PROMPT_NOT_SENT = 'The payment prompt could not be sent to your phone. Please try again.';

export const DEFAULT_EXPLANATION: Record<PaymentStatus, string> = {
  pending: 'Waiting for the payment to be confirmed.',
  completed: 'Transaction Paid',
  failed: 'The payment did not go through.',
  expired: 'The payment time limit passed before the payment was made.',
  review: 'The payment is being reviewed. We will contact you.',
};

export function nextCheckDelay(attempts: number): number {
  return Math.min(FIRST_CHECK_MS * 2 ** Math.min(attempts, 10), MAX_CHECK_INTERVAL_MS);
}

/** A gateway failure as the client sees it: never DPO's raw text unless it is about the client's input. */
export function gatewayFailure(deps: PaymentDeps, error: unknown, context: Record<string, unknown>): never {
  if (error instanceof GatewayError) {
    deps.logger.warn(
      {
        ...context,
        dpo: { kind: error.kind, operation: error.operation, code: error.dpoCode, attempts: error.attempts },
      },
      'dpo call failed',
    );
    throw new AppError('unavailable', UNAVAILABLE);
  }
  throw error;
}
