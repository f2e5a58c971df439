import {
  formatDate,
  formatUgx,
  MOBILE_MONEY,
  paymentNumberProblem,
  ussdFallback,
  type ChargeMobileRequest,
  type InitiatePaymentRequest,
  type InitiatePaymentResponse,
  type PaymentHistoryEntry,
  type PaymentOption,
  type PaymentStatus,
  type VerifyPaymentResponse,
} from '@filamu/shared';
import { and, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor, Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/client.ts';
import { transactionRetrying } from '../../db/retry.ts';
import { payments, subscriptionPlans, users } from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { UserRow } from '../auth/principal.ts';
import { dpoCodeLabel, type Metrics } from '../metrics/registry.ts';
import { activateSubscription, isPurchasable } from '../plans/subscription.ts';
import { assertSaleOpen, planSale } from '../settings/plan-sale.ts';
import { queuePush } from '../push/outbox.ts';
import { queueSms } from '../sms/outbox.ts';
import { receiptText } from '../sms/texts.ts';
import { checkSoon, lookAtPayment } from './dpo-reads.ts';
import {
  GatewayError,
  normaliseUgandaPhone,
  sameAmount,
  type VerifyResult,
  type PaymentGateway,
} from './dpo/adapter.ts';
import { assertHasMovies, assertMayBuy } from './purchase-rules.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Config } from '../../config.ts';
import type { Logger } from 'pino';
import type { Mailer } from '../mail/mailer.ts';
import { insertWithReference } from './reference.ts';
import { assertNoWaitingPayment, pushAfterCancel, WAITING_INDEX, waitingRefusal } from './waiting.ts';

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
export const MAX_CHECK_INTERVAL_MS = 5 * 60_000;
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

async function ownedPayment(exec: Executor, user: UserRow, where: { token?: string; id?: string }) {
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
export function promptInstructions(mno: z.output<typeof ChargeMobileRequest>['mno'], amountUgx: number): string {
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

/** Decides what a verifyToken answer means for this payment (security R16). */
export function decide(
  payment: PaymentRow,
  result: VerifyResult,
  now: Date,
): { status: PaymentStatus; explanation: string } {
  const explanation = result.explanation || DEFAULT_EXPLANATION.pending;
  switch (result.outcome) {
    case 'paid': {
      const amount = result.transactionAmount ?? result.transactionFinalAmount;
      const currency = (result.transactionCurrency ?? result.transactionFinalCurrency ?? '').trim().toUpperCase();
      const refOk = !result.companyRef || result.companyRef.trim() === payment.id;
      if (amount !== undefined && sameAmount(amount, payment.amountUgx) && currency === 'UGX' && refOk) {
        return { status: 'completed', explanation };
      }
      return { status: 'review', explanation: 'Paid, but the amount, currency or reference does not match.' };
    }
    case 'review':
      return { status: 'review', explanation };
    case 'declined':
    case 'cancelled':
      return { status: 'failed', explanation };
    case 'expired':
      return { status: 'expired', explanation };
    case 'pending':
      if (now.getTime() >= payment.expiresAt.getTime() + EXPIRY_GRACE_MS) {
        return { status: 'expired', explanation: DEFAULT_EXPLANATION.expired };
      }
      return { status: 'pending', explanation };
    case 'error':
      return { status: 'pending', explanation: DEFAULT_EXPLANATION.pending };
  }
}

/**
 * The only place a payment changes state; client verify, the DPO push and the reconciler all end here.
 * Completion is one transaction: the conditional UPDATE … WHERE status = 'pending' RETURNING lets exactly one
 * caller through, and only that caller activates the subscription and queues the receipt.
 */
export async function settle(deps: PaymentDeps, payment: PaymentRow, result: VerifyResult): Promise<PaymentRow> {
  const now = deps.clock.now();
  const decision = decide(payment, result, now);
  deps.metrics.paymentVerifications.inc({ code: dpoCodeLabel(result.code), outcome: result.outcome });
  if (result.outcome === 'error') {
    deps.logger.warn({ paymentId: payment.id, code: result.code }, 'dpo verifyToken gave an unknown answer');
  }
  if (decision.status === 'review') {
    deps.logger.warn({ paymentId: payment.id, code: result.code, raw: result.raw }, 'payment needs manual review');
  }
  if (decision.status === 'pending') {
    const [row] = await deps.database.db
      .update(payments)
      .set({
        resultCode: result.code || null,
        resultExplanation: decision.explanation,
        nextCheckAt: new Date(now.getTime() + nextCheckDelay(payment.checkAttempts + 1)),
        checkAttempts: payment.checkAttempts + 1,
        updatedAt: now,
      })
      .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')))
      .returning();
    return row ?? (await reload(deps.database.db, payment.id));
  }

  return transactionRetrying(deps.database.db, async (tx) => {
    const [row] = await tx
      .update(payments)
      .set({
        status: decision.status,
        resultCode: result.code || null,
        resultExplanation: decision.explanation,
        dpoTransRef: result.transRef || payment.dpoTransRef,
        reportedAmount: result.transactionAmount ?? result.transactionFinalAmount ?? null,
        reportedCurrency: result.transactionCurrency ?? result.transactionFinalCurrency ?? null,
        completedAt: decision.status === 'completed' ? now : null,
        updatedAt: now,
      })
      .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')))
      .returning();
    if (!row) return reload(tx, payment.id);
    deps.logger.info({ paymentId: row.id, status: row.status, code: row.resultCode }, 'payment settled');
    if (row.status === 'completed' && row.userId) await activate(deps, tx, row, now);
    return row;
  });
}

/**
 * Puts the payer on the payment's plan and queues the receipts (mail, SMS to the registered phone, push); run it in the
 * transaction that completed the payment, so each receipt exists exactly when the activation does.
 */
export async function activate(deps: PaymentDeps, tx: Executor, payment: PaymentRow, now: Date) {
  const [plan] = await tx.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, payment.planId));
  const [user] = await tx
    .select({ email: users.email, fullName: users.fullName, phone: users.phone })
    .from(users)
    .where(eq(users.id, payment.userId!));
  if (!plan || !user) return;
  await activateSubscription(tx, payment.userId!, plan, now);
  deps.metrics.paymentActivations.inc();
  await deps.mailer.queue(tx, {
    to: user.email,
    subject: 'Your Filamu payment receipt',
    kind: 'receipt',
    body: [
      `Hello ${user.fullName},`,
      '',
      'Thank you for your payment. Your subscription is active.',
      '',
      `Plan: ${payment.planName}`,
      `Amount: ${formatUgx(payment.amountUgx)}`,
      `Reference: ${payment.reference}`,
      `Access until: ${formatDate(plan.globalExpiryAt)}`,
    ].join('\n'),
  });
  if (user.phone) {
    const text = receiptText({
      amountUgx: payment.amountUgx,
      planName: payment.planName,
      accessUntil: plan.globalExpiryAt,
      reference: payment.reference,
    });
    await queueSms(tx, now, { to: user.phone, text, purpose: 'payment_receipt' });
  }
  // For a payer who closed the page while the phone prompt was open; the service worker stays quiet when the app is
  // on screen (decision 0154). Same transaction: pushed exactly when the payment completed, once.
  await queuePush(tx, now, payment.userId!, {
    kind: 'payment_confirmed',
    title: 'Payment received',
    body: `${formatUgx(payment.amountUgx)} for ${payment.planName}. Access until ${formatDate(plan.globalExpiryAt)}. Ref ${payment.reference}.`,
    url: '/dashboard',
  });
}

export async function reload(exec: Executor, id: string): Promise<PaymentRow> {
  const [row] = await exec.select().from(payments).where(eq(payments.id, id));
  return row!;
}

/** Asks DPO about a pending payment and settles it; anything else is returned as stored. */
export async function checkPayment(deps: PaymentDeps, payment: PaymentRow): Promise<PaymentRow> {
  if (payment.status !== 'pending' || !payment.dpoToken) return payment;
  return settle(deps, payment, await askDpo(deps, payment.dpoToken));
}

/** verifyToken; a gateway that could not be read is counted before the error goes on. */
async function askDpo(deps: PaymentDeps, dpoToken: string): Promise<VerifyResult> {
  try {
    return await deps.payments.verifyToken(dpoToken);
  } catch (error) {
    const code = dpoCodeLabel(error instanceof GatewayError ? error.dpoCode : null);
    deps.metrics.paymentVerifications.inc({ code, outcome: 'gateway_error' });
    throw error;
  }
}

export async function verifyPayment(deps: PaymentDeps, user: UserRow, token: string): Promise<VerifyPaymentResponse> {
  const payment = await ownedPayment(deps.database.db, user, { token });
  if (!payment) throw notFound('Payment');
  return currentResult(deps, payment, user);
}

/** One of the user's payments by its transaction id, as it stands now (the checkout result pages ask this). */
export async function paymentByTransaction(
  deps: PaymentDeps,
  user: UserRow,
  transactionId: string,
): Promise<VerifyPaymentResponse> {
  const payment = await ownedPayment(deps.database.db, user, { id: transactionId });
  if (!payment) throw notFound('Payment');
  return currentResult(deps, payment, user);
}

/**
 * Asks DPO about a pending payment first, so a page never shows a state the gateway has moved past; if DPO was asked
 * about it a moment ago (or the payer has asked too often), the stored state is the answer (decision 0115).
 */
export async function currentResult(
  deps: PaymentDeps,
  payment: PaymentRow,
  user: UserRow,
): Promise<VerifyPaymentResponse> {
  let current: PaymentRow;
  try {
    current = (await lookAtPayment(deps, payment, (p) => checkPayment(deps, p), user.id)).payment;
  } catch (error) {
    gatewayFailure(deps, error, { paymentId: payment.id, step: 'verifyToken' });
  }
  let endDate: string | null = null;
  if (current.status === 'completed') {
    const [plan] = await deps.database.db
      .select({ expiry: subscriptionPlans.globalExpiryAt })
      .from(subscriptionPlans)
      .where(eq(subscriptionPlans.id, current.planId));
    endDate = plan?.expiry.toISOString() ?? null;
  }
  return resultOf(current, endDate);
}

export function resultOf(current: PaymentRow, endDate: string | null): VerifyPaymentResponse {
  return {
    status: current.status,
    resultExplanation: current.resultExplanation ?? DEFAULT_EXPLANATION[current.status],
    transaction_id: current.id,
    reference: current.reference,
    plan_name: current.planName,
    amount: current.amountUgx,
    subscription_end_date: endDate,
    cancelled: current.cancelledAt !== null,
  };
}

/**
 * DPO's push (or the sandbox's): only a prompt to ask DPO ourselves (R16). Returns false for an unknown token.
 * A failed verify is logged and left to the reconciler; the push is still acknowledged. Only a pending payment is
 * verified, at most once per window (decision 0115): a flood of pushes makes one DPO call, not one each.
 */
export async function handlePush(deps: PaymentDeps, transToken: string): Promise<boolean> {
  const [payment] = await deps.database.db.select().from(payments).where(eq(payments.dpoToken, transToken));
  if (!payment) return false;
  deps.logger.info({ paymentId: payment.id, status: payment.status }, 'dpo push received');
  if (payment.cancelledAt) {
    await pushAfterCancel(deps, payment);
    return true;
  }
  try {
    const look = await lookAtPayment(deps, payment, (p) => checkPayment(deps, p));
    if (!look.asked && look.payment.status === 'pending') await checkSoon(deps, payment);
  } catch (error) {
    deps.logger.warn({ paymentId: payment.id, err: error }, 'verify after dpo push failed; the reconciler will retry');
  }
  return true;
}

/**
 * The payer's payments: those a prompt was asked for, and any money received however it came. Opening the payment
 * page and leaving is not a payment (decision 0180).
 */
export async function paymentHistory(deps: PaymentDeps, user: UserRow): Promise<{ payments: PaymentHistoryEntry[] }> {
  const rows = await deps.database.db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.userId, user.id),
        or(isNotNull(payments.chargeRequestedAt), inArray(payments.status, ['completed', 'review'])),
      ),
    )
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(200);
  return {
    payments: rows.map((row) => ({
      transaction_id: row.id,
      reference: row.reference,
      dpo_token: row.dpoToken,
      plan_name: row.planName,
      amount: row.amountUgx,
      currency: 'UGX',
      status: row.status,
      mno: row.mno === 'MTNmobilemoney' || row.mno === 'Mobile_Airtel_UG' ? row.mno : null,
      phone: row.phone,
      result_explanation: row.resultExplanation,
      created_at: row.createdAt.toISOString(),
      completed_at: row.completedAt?.toISOString() ?? null,
    })),
  };
}
