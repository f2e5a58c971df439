// Settlement: what DPO's answer means for a payment, and the one activation it may cause.
import type { PaymentStatus } from '@filamu/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { transactionRetrying } from '../../db/retry.ts';
import { payments, subscriptionPlans, users } from '../../db/schema.ts';
import { dpoCodeLabel } from '../metrics/registry.ts';
import { activateSubscription } from '../plans/subscription.ts';
import { checkSoon, lookAtPayment } from './dpo-reads.ts';
import { GatewayError } from './dpo/errors.ts';
import { queueReceipts } from './receipts.ts';
import { sameAmount } from './dpo/formatting.ts';
import { type VerifyResult } from './dpo/port.ts';
import { pushAfterCancel } from './waiting.ts';
import {
  DEFAULT_EXPLANATION,
  EXPIRY_GRACE_MS,
  type PaymentDeps,
  type PaymentRow,
  nextCheckDelay,
} from './payment-rules.ts';

/** Decides what a verifyToken answer means for this payment (security R16). */
function decide(payment: PaymentRow, result: VerifyResult, now: Date): { status: PaymentStatus; explanation: string } {
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
 * Puts the payer on the payment's plan and queues the receipts (receipts.ts); run it in the transaction that completed
 * the payment, so each receipt exists exactly when the activation does.
 */
export async function activate(deps: PaymentDeps, tx: Executor, payment: PaymentRow, now: Date) {
  const [plan] = await tx.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, payment.planId));
  const [user] = await tx
    .select({
      id: users.id,
      email: users.email,
      fullName: users.fullName,
      phone: users.phone,
      language: users.language,
    })
    .from(users)
    .where(eq(users.id, payment.userId!));
  if (!plan || !user) return;
  await activateSubscription(tx, payment.userId!, plan, now);
  // Money came from the number that was charged: when it is the account's own, the phone is proven (decision 0197).
  if (payment.phone) {
    await tx
      .update(users)
      .set({ phoneVerifiedAt: now })
      .where(and(eq(users.id, payment.userId!), eq(users.phone, payment.phone), isNull(users.phoneVerifiedAt)));
  }
  deps.metrics.paymentActivations.inc();
  const { amountUgx, planName, reference } = payment;
  await queueReceipts(deps, tx, now, user, { amountUgx, planName, reference, accessUntil: plan.globalExpiryAt });
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
export async function askDpo(deps: PaymentDeps, dpoToken: string): Promise<VerifyResult> {
  try {
    return await deps.payments.verifyToken(dpoToken);
  } catch (error) {
    const code = dpoCodeLabel(error instanceof GatewayError ? error.dpoCode : null);
    deps.metrics.paymentVerifications.inc({ code, outcome: 'gateway_error' });
    throw error;
  }
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
