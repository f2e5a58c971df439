// Reads: a payment as the person follows it (verify, its result, the history).
import { type PaymentHistoryEntry, type VerifyPaymentResponse } from '@filamu/shared';
import { and, desc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import { payments, subscriptionPlans } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import type { UserRow } from '../../http/principal.ts';
import { lookAtPayment } from './dpo-reads.ts';
import { ownedPayment } from './checkout.ts';
import { DEFAULT_EXPLANATION, type PaymentDeps, type PaymentRow, gatewayFailure } from './payment-rules.ts';
import { checkPayment } from './settlement.ts';

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
async function currentResult(deps: PaymentDeps, payment: PaymentRow, user: UserRow): Promise<VerifyPaymentResponse> {
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
