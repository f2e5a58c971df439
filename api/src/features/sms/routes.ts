import { createHash, timingSafeEqual } from 'node:crypto';
import { contracts } from '@filamu/shared';
import { bodyLimit } from 'hono/body-limit';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { AppError } from '../../http/errors.ts';
import { budgetStatus } from './budget.ts';
import { applyDeliveryReport } from './outbox.ts';
import { parseDeliveryReport } from './protocol.ts';

export const DELIVERY_REPORT_PATH = '/sms/delivery-reports';
/** A report is a few hundred bytes of form fields; anything far larger is refused before it is read. */
const REPORT_BODY_LIMIT_BYTES = 8 * 1024;

export const deliveryReportBodyLimit = bodyLimit({
  maxSize: REPORT_BODY_LIMIT_BYTES,
  onError: () => {
    throw new AppError('payload_too_large', `Delivery reports are limited to ${REPORT_BODY_LIMIT_BYTES} bytes.`);
  },
});

const digest = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));

export function smsRoutes(router: ContractRouter, deps: Deps): void {
  // Africa's Talking's delivery report callback: form-encoded, not a JSON contract. With a real account the URL
  // carries the secret (config refuses an account without one); the simulator reports in process.
  router.app.post(DELIVERY_REPORT_PATH, async (c) => {
    const secret = deps.config.sms.deliveryReportSecret;
    if (!secret || !sameSecret(c.req.query('secret') ?? '', secret)) throw new AppError('forbidden', 'Not allowed.');
    const report = parseDeliveryReport(new URLSearchParams(await c.req.text()));
    if (!report) throw new AppError('bad_request', 'A delivery report needs id and status.');
    // Unknown ids are answered 200 too: the gateway retries failed callbacks, and an id we never sent will not change.
    await applyDeliveryReport(deps, report);
    return c.text('OK', 200);
  });

  router.on(contracts.system.smsSimulatorMessages, async ({ query }) => {
    if (!deps.smsSimulator) throw new AppError('not_found', 'Text messages go to the real gateway, not the simulator.');
    return { messages: deps.smsSimulator.messages(query.to) };
  });

  router.on(contracts.settings.adminSmsBudgetStatus, async () => {
    const state = await deps.sms.state();
    return budgetStatus(deps.database.db, deps.clock.now(), state.kind === 'ok' ? state.balance : null);
  });
}
