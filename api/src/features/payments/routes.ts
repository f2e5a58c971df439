import { createHash, timingSafeEqual } from 'node:crypto';
import { contracts, STAFF_NEED_NO_PLAN } from '@filamu/shared';
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { AppError } from '../../http/errors.ts';
import { clientIp } from '../auth/client-ip.ts';
import { hitLimits } from '../rate-limit/limiter.ts';
import { paymentInitiation } from '../rate-limit/limits.ts';
import { cancelPayment, waitingPayment } from './cancel.ts';
import { chargeHits } from './charge-limits.ts';
import { normaliseUgandaPhone } from './dpo/formatting.ts';
import { parseApi3g, text } from './dpo/xml.ts';
import { assertNumberFitsNetwork, chargeMobile, initiatePayment, paymentOptions } from './checkout.ts';
import { paymentByTransaction, paymentHistory, verifyPayment } from './reads.ts';
import { handlePush } from './settlement.ts';
import { payingUser } from './purchase-rules.ts';

const { payments } = contracts;

export const NOTIFY_PATH = '/payments/dpo/notify';

/** DPO's push is a few hundred bytes; anything far larger is refused before it is read or parsed (decision 0101). */
export const NOTIFY_BODY_LIMIT_BYTES = 16 * 1024;

/** Mounted ahead of the API's general body limit and of every body reader, so nothing reads more than the cap. */
export const notifyBodyLimit = bodyLimit({
  maxSize: NOTIFY_BODY_LIMIT_BYTES,
  onError: () => {
    throw new AppError('payload_too_large', `Payment notifications are limited to ${NOTIFY_BODY_LIMIT_BYTES} bytes.`);
  },
});

export function paymentRoutes(router: ContractRouter, deps: Deps): void {
  const user = (c: Context<AppEnv>) => payingUser(c.get('principal'));
  const ip = (c: Context<AppEnv>) => clientIp(c, deps.config.trustProxy);
  // Agents have nothing to pay for: every payments route tells them so (403, never a 401 that would sign them out).
  router
    .refusingWith(STAFF_NEED_NO_PLAN.agent)
    .on(payments.initiate, async ({ body }, c) => {
      const payer = user(c);
      await hitLimits(deps.database.db, deps.clock.now(), [
        { limit: paymentInitiation.perAccount, subject: payer.id },
        { limit: paymentInitiation.perIp, subject: ip(c) },
      ]);
      return initiatePayment(deps, payer, body);
    })
    .on(payments.paymentOptions, ({ params }, c) => paymentOptions(deps, user(c), params.token))
    .on(payments.chargeMobile, async ({ body }, c) => {
      const payer = user(c);
      // A number the chosen network cannot prompt is refused before it counts against any limit or reaches DPO.
      assertNumberFitsNetwork(body);
      // Before the gateway is asked: every charge that reaches it pushes a prompt to a phone.
      const charged = { transactionId: body.transaction_id, phone: normaliseUgandaPhone(body.phoneNumber) };
      const hits = await chargeHits(deps.database.db, payer, charged, ip(c));
      await hitLimits(deps.database.db, deps.clock.now(), hits);
      return chargeMobile(deps, payer, body);
    })
    .on(payments.verify, ({ params }, c) => verifyPayment(deps, user(c), params.token))
    .on(payments.transaction, ({ params }, c) => paymentByTransaction(deps, user(c), params.transaction_id))
    .on(payments.history, (_input, c) => paymentHistory(deps, user(c)))
    .on(payments.waiting, (_input, c) => waitingPayment(deps, user(c)))
    .on(payments.cancel, ({ params }, c) => cancelPayment(deps, user(c), params.transaction_id));
  notifyRoute(router.app, deps);
}

/** TransactionToken from DPO's push: XML per the docs; form-encoded or JSON parsed too (dpo-protocol §3.2). */
function pushedToken(body: string): string | undefined {
  const trimmed = body.trim();
  if (trimmed.startsWith('<')) {
    const root = parseApi3g(trimmed);
    return root ? text(root, 'TransactionToken')?.trim() || undefined : undefined;
  }
  if (trimmed.startsWith('{')) {
    try {
      const value = (JSON.parse(trimmed) as Record<string, unknown>).TransactionToken;
      return typeof value === 'string' && value.trim() ? value.trim() : undefined;
    } catch {
      return undefined;
    }
  }
  return new URLSearchParams(trimmed).get('TransactionToken')?.trim() || undefined;
}

const digest = (value: string) => createHash('sha256').update(value).digest();
const sameSecret = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));

/**
 * DPO's pushPayments target: public and not a JSON contract. The push is unsigned, so it only makes us run
 * verifyToken and settle (R16); the answer is plain `OK` for any token we issued.
 */
function notifyRoute(api: Hono<AppEnv>, deps: Deps): void {
  api.post(NOTIFY_PATH, async (c) => {
    const secret = deps.config.payments.notifySecret;
    if (secret && !sameSecret(c.req.query('secret') ?? '', secret)) throw new AppError('forbidden', 'Not allowed.');
    const token = pushedToken(await c.req.text());
    if (!token || token.length > 100) throw new AppError('bad_request', 'No TransactionToken in the notification.');
    if (!(await handlePush(deps, token))) throw new AppError('not_found', 'Unknown transaction.');
    return c.text('OK', 200);
  });
}
