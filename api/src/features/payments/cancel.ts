import type { VerifyPaymentResponse, WaitingPaymentResponse } from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { payments } from '../../db/schema.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { UserRow } from '../../http/principal.ts';
import { GatewayError } from './dpo/errors.ts';
import { gatewayFailure, type PaymentDeps } from './payment-rules.ts';
import { resultOf } from './reads.ts';
import { checkPayment, reload } from './settlement.ts';
import { waitingPaymentRow, waitingView } from './waiting.ts';

export const CANCELLED_EXPLANATION = 'You cancelled this payment.';
const NOT_CANCELLABLE = 'This payment is no longer waiting, so there is nothing to cancel.';
export const PAID_BEFORE_CANCEL =
  'The payment could not be cancelled: it was approved on the phone just now. Your plan is being activated.';

export async function waitingPayment(deps: PaymentDeps, user: UserRow): Promise<WaitingPaymentResponse> {
  const row = await waitingPaymentRow(deps.database.db, user.id);
  return { payment: row ? waitingView(row) : null };
}

/**
 * The payer gives up on a payment waiting for the phone (decision 0181). DPO closes the token first, so a prompt
 * approved later cannot take money; only then is the payment `failed`. If DPO refuses to close it (the prompt was
 * just approved), DPO is asked what happened and settle decides, activating exactly once as for any payment.
 */
export async function cancelPayment(
  deps: PaymentDeps,
  user: UserRow,
  transactionId: string,
): Promise<VerifyPaymentResponse> {
  const [payment] = await deps.database.db
    .select()
    .from(payments)
    .where(and(eq(payments.id, transactionId), eq(payments.userId, user.id)));
  if (!payment) throw notFound('Payment');
  if (payment.cancelledAt) return resultOf(payment, null);
  if (payment.status !== 'pending') throw conflict(NOT_CANCELLABLE);
  if (payment.dpoToken) {
    try {
      await deps.payments.cancelToken(payment.dpoToken);
    } catch (error) {
      if (!(error instanceof GatewayError) || error.kind !== 'protocol') {
        gatewayFailure(deps, error, { paymentId: payment.id, step: 'cancelToken' });
      }
      deps.logger.info({ paymentId: payment.id, code: error.dpoCode }, 'dpo refused to cancel; verifying');
      let after;
      try {
        after = await checkPayment(deps, payment);
      } catch (verifyError) {
        gatewayFailure(deps, verifyError, { paymentId: payment.id, step: 'verifyToken' });
      }
      if (after.status === 'pending') {
        throw new AppError(
          'unavailable',
          'The payment could not be cancelled right now. Please try again in a moment.',
        );
      }
      if (after.status === 'completed') throw conflict(PAID_BEFORE_CANCEL);
      return resultOf(after, null);
    }
  }
  const now = deps.clock.now();
  const [cancelled] = await deps.database.db
    .update(payments)
    .set({ status: 'failed', cancelledAt: now, resultExplanation: CANCELLED_EXPLANATION, updatedAt: now })
    .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')))
    .returning();
  // Settled by the reconciler or a push in between: that state stands.
  const current = cancelled ?? (await reload(deps.database.db, payment.id));
  deps.logger.info({ paymentId: payment.id, status: current.status }, 'payment cancelled by the payer');
  return resultOf(current, null);
}
