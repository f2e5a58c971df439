// Checkout: a payment started for a plan, the networks offered, and the prompt sent to the person's phone.
import {
  formatUgx,
  MOBILE_MONEY,
  paymentNumberProblem,
  ussdFallback,
  type ChargeMobileRequest,
  type InitiatePaymentRequest,
  type InitiatePaymentResponse,
  type PaymentOption,
  type PaymentStatus,
} from '@filamu/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/client.ts';
import { payments, subscriptionPlans } from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { UserRow } from '../../http/principal.ts';
import { isPurchasable } from '../plans/subscription.ts';
import { assertSaleOpen, planSale } from '../settings/plan-sale.ts';
import { GatewayError } from './dpo/errors.ts';
import { normaliseUgandaPhone, sameAmount } from './dpo/formatting.ts';
import { type VerifyResult } from './dpo/port.ts';
import { assertHasMovies, assertMayBuy } from './purchase-rules.ts';
import { insertWithReference } from './reference.ts';
import { assertNoWaitingPayment, WAITING_INDEX, waitingRefusal } from './waiting.ts';
import {
  AMOUNT_MISMATCH,
  FIRST_CHECK_MS,
  NOT_PURCHASABLE,
  PROMPT_NOT_SENT,
  type PaymentDeps,
  type PaymentRow,
  gatewayFailure,
} from './payment-rules.ts';
import { askDpo, settle } from './settlement.ts';

export async function ownedPayment(exec: Executor, user: UserRow, where: { token?: string; id?: string }) {
  const condition = where.token !== undefined ? eq(payments.dpoToken, where.token) : eq(payments.id, where.id!);
  const [row] = await exec
    .select()
    .from(payments)
    .where(and(condition, eq(payments.userId, user.id)));
  return row;
}

export async function initiatePayment(
  deps: PaymentDeps,
  user: UserRow,
  input: z.output<typeof InitiatePaymentRequest>,
): Promise<InitiatePaymentResponse> {
  const now = deps.clock.now();
  const [plan] = await deps.database.db
    .select()
    .from(subscriptionPlans)
    .where(eq(subscriptionPlans.id, input.subscription_plan_id));
  // A missing, hidden, inactive, expired or free plan all read the same: nothing to buy here.
  if (!plan || !isPurchasable(plan, now) || plan.priceUgx <= 0) throw conflict(NOT_PURCHASABLE);
  assertSaleOpen(plan.globalExpiryAt, await planSale(deps.database.db), now);
  await assertMayBuy(deps.database.db, user, plan, now);
  await assertHasMovies(deps.database.db, plan.id);
  await assertNoWaitingPayment(deps.database.db, user);
  // The price is always the plan's; a client that thinks otherwise is refused rather than silently charged (ADR 0014).
  if (input.amount !== undefined && !sameAmount(String(input.amount).trim(), plan.priceUgx)) {
    throw new AppError('bad_request', AMOUNT_MISMATCH);
  }

  const ptlMs = deps.config.payments.ptlMinutes * 60_000;
  const [payment] = await insertWithReference((reference) =>
    deps.database.db
      .insert(payments)
      .values({
        reference,
        userId: user.id,
        planId: plan.id,
        planName: plan.planName,
        amountUgx: plan.priceUgx,
        currency: 'UGX',
        status: 'pending',
        expiresAt: new Date(now.getTime() + ptlMs),
        nextCheckAt: new Date(now.getTime() + FIRST_CHECK_MS),
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  const paymentId = payment!.id;

  let token;
  try {
    token = await deps.payments.createToken({
      companyRef: paymentId,
      amount: plan.priceUgx,
      currency: 'UGX',
      description: `Filamu ${plan.planName} subscription`,
      customerEmail: user.email,
      customerPhone: user.phone ?? undefined,
      serviceDate: now,
    });
  } catch (error) {
    await deps.database.db
      .update(payments)
      .set({
        status: 'failed',
        resultCode: error instanceof GatewayError ? (error.dpoCode ?? null) : null,
        resultExplanation: 'The payment could not be started.',
        updatedAt: deps.clock.now(),
      })
      .where(and(eq(payments.id, paymentId), eq(payments.status, 'pending')));
    gatewayFailure(deps, error, { paymentId, step: 'createToken' });
  }
  await deps.database.db
    .update(payments)
    .set({
      dpoToken: token.transToken,
      dpoTransRef: token.transRef || null,
      resultCode: token.code,
      resultExplanation: token.explanation,
      updatedAt: deps.clock.now(),
    })
    .where(eq(payments.id, paymentId));
  deps.logger.info({ paymentId, planId: plan.id, amount: plan.priceUgx }, 'payment initiated');
  return {
    transaction_id: paymentId,
    reference: payment!.reference,
    dpo_token: token.transToken,
    amount: plan.priceUgx,
    currency: 'UGX',
    plan_name: plan.planName,
  };
}

export async function paymentOptions(
  deps: PaymentDeps,
  user: UserRow,
  token: string,
): Promise<{ mobileoption: PaymentOption[]; sandbox: boolean }> {
  const payment = await ownedPayment(deps.database.db, user, { token });
  if (!payment) throw notFound('Payment');
  if (payment.status !== 'pending') throw conflict('This payment is no longer open.');
  let result;
  try {
    result = await deps.payments.getMobilePaymentOptions(token);
  } catch (error) {
    if (error instanceof GatewayError && error.dpoCode === '904') throw conflict('This payment is no longer open.');
    gatewayFailure(deps, error, { paymentId: payment.id, step: 'GetMobilePaymentOptions' });
  }
  return {
    sandbox: deps.config.payments.dpoCompanyToken === null,
    mobileoption: result.options
      .filter((o) => o.countryCode.trim().toUpperCase() === 'UG')
      .map((o) => ({
        paymentname: o.paymentName,
        logo: o.logo ?? '',
        instructions: o.instructions,
        country: o.country,
        countryCode: o.countryCode,
      })),
  };
}

/** MTN cannot prompt an Airtel phone nor the reverse: such a charge would leave the payer waiting for nothing. */
export function assertNumberFitsNetwork(
  input: Pick<z.output<typeof ChargeMobileRequest>, 'phoneNumber' | 'mno'>,
): void {
  const problem = paymentNumberProblem(input.phoneNumber, input.mno);
  if (!problem) return;
  const code = problem.kind === 'wrong_network' ? 'wrong_network' : 'validation_error';
  throw new AppError(code, problem.message, { issues: [{ path: 'phoneNumber', message: problem.message }] });
}

export async function chargeMobile(
  deps: PaymentDeps,
  user: UserRow,
  input: z.output<typeof ChargeMobileRequest>,
): Promise<{ instructions: string; status: PaymentStatus }> {
  assertNumberFitsNetwork(input);
  const payment = await ownedPayment(deps.database.db, user, { id: input.transaction_id });
  if (!payment) throw notFound('Transaction');
  if (payment.status !== 'pending' || !payment.dpoToken) throw conflict('This payment is no longer pending.');
  // No new prompt for a plan that lost its movies; a prompt already paid is still honoured by verify and the reconciler.
  await assertHasMovies(deps.database.db, payment.planId);
  const phone = normaliseUgandaPhone(input.phoneNumber);
  const now = deps.clock.now();
  // A prompt is on its way: the reconciler starts looking soon, whatever the browser does next. From here on the
  // payment is the customer's (history, the waiting card); the unique index lets one such payment per person through.
  try {
    await deps.database.db
      .update(payments)
      .set({
        phone,
        mno: input.mno,
        nextCheckAt: new Date(now.getTime() + FIRST_CHECK_MS),
        checkAttempts: 0,
        chargeRequestedAt: sql`coalesce(${payments.chargeRequestedAt}, ${now.toISOString()}::timestamptz)`,
        updatedAt: now,
      })
      .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')));
  } catch (error) {
    if (isUniqueViolation(error, WAITING_INDEX)) throw await waitingRefusal(deps.database.db, user);
    throw error;
  }
  let result;
  try {
    result = await deps.payments.chargeTokenMobile({
      transToken: payment.dpoToken,
      phoneNumber: phone,
      mno: input.mno,
      country: 'uganda',
    });
  } catch (error) {
    if (error instanceof GatewayError && error.outcomeUnknown) {
      deps.metrics.paymentCharges.inc({ result: 'unclear' });
      return afterUnclearCharge(deps, payment, input.mno, error);
    }
    if (error instanceof GatewayError && error.kind === 'protocol' && error.dpoCode?.startsWith('95')) {
      // 95x: the phone number or network was refused; DPO's words tell the payer what to fix.
      deps.metrics.paymentCharges.inc({ result: 'refused' });
      throw new AppError('bad_request', error.explanation || 'The mobile money charge was refused.');
    }
    deps.metrics.paymentCharges.inc({
      result: error instanceof GatewayError && error.dpoCode === '904' ? 'closed' : 'error',
    });
    if (error instanceof GatewayError && error.dpoCode === '904') throw conflict('This payment is no longer open.');
    gatewayFailure(deps, error, { paymentId: payment.id, step: 'ChargeTokenMobile' });
  }
  deps.metrics.paymentCharges.inc({ result: 'sent' });
  deps.logger.info({ paymentId: payment.id, code: result.code, mno: input.mno }, 'mobile charge sent');
  return { instructions: result.instructions, status: 'pending' };
}

/** What to do on the phone when DPO's own instructions were lost with its answer (decision 0087). */
function promptInstructions(mno: z.output<typeof ChargeMobileRequest>['mno'], amountUgx: number): string {
  const network = MOBILE_MONEY[mno];
  return [
    `${network.name} sends a prompt to your phone to pay ${formatUgx(amountUgx)}.`,
    'Approve it with your PIN.',
    ussdFallback(network),
  ].join(';');
}

/**
 * DPO may have pushed the prompt but its answer was lost (5xx, timeout, reset, unreadable body): the charge is never
 * re-sent (a second prompt) and the payer is never told "failed, try again" on a guess. verifyToken says what is
 * true (decision 0087): paid → completed (activated once, by settle); declined, cancelled or expired → that status;
 * still unpaid with the prompt sent — or DPO unreadable again — → pending: "approve on your phone", polling goes on.
 * Only DPO's explicit "Not sent" lets the payer charge again.
 */
async function afterUnclearCharge(
  deps: PaymentDeps,
  payment: PaymentRow,
  mno: z.output<typeof ChargeMobileRequest>['mno'],
  error: GatewayError,
): Promise<{ instructions: string; status: PaymentStatus }> {
  deps.logger.warn(
    { paymentId: payment.id, dpo: { operation: error.operation, attempts: error.attempts, message: error.message } },
    'mobile charge answer lost; verifying with DPO',
  );
  const instructions = promptInstructions(mno, payment.amountUgx);
  let result: VerifyResult;
  try {
    result = await askDpo(deps, payment.dpoToken!);
  } catch (verifyError) {
    deps.logger.warn({ paymentId: payment.id, err: verifyError }, 'verify after a lost charge answer failed');
    return { instructions, status: 'pending' };
  }
  const after = await settle(deps, payment, result);
  const promptSent = result.mobilePaymentRequest?.trim().toLowerCase() !== 'not sent';
  deps.logger.info({ paymentId: payment.id, status: after.status, promptSent }, 'lost charge answer verified');
  if (after.status === 'pending' && !promptSent) throw new AppError('unavailable', PROMPT_NOT_SENT);
  return { instructions, status: after.status };
}
