import { formatUgx, type WaitingPayment } from '@filamu/shared';
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { Executor, Database } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { UserRow } from '../../http/principal.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from 'pino';
import type { PaymentGateway } from './dpo/port.ts';

/** The partial unique index that lets one payment per person wait for a phone (decision 0181). */
export const WAITING_INDEX = 'payments_one_waiting_per_user';

interface WaitingDeps {
  database: Database;
  logger: Logger;
  payments: PaymentGateway;
  clock: Clock;
}
type Row = typeof payments.$inferSelect;

/** A payment a prompt was sent for that is not settled yet: what the dashboard and plans page show. */
export async function waitingPaymentRow(exec: Executor, userId: string): Promise<Row | undefined> {
  const [row] = await exec
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.status, 'pending'), isNotNull(payments.chargeRequestedAt)))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return row;
}

export function waitingView(row: Row): WaitingPayment {
  return {
    transaction_id: row.id,
    reference: row.reference,
    dpo_token: row.dpoToken ?? '',
    plan_id: row.planId,
    plan_name: row.planName,
    amount: row.amountUgx,
    mno: row.mno === 'MTNmobilemoney' || row.mno === 'Mobile_Airtel_UG' ? row.mno : null,
    phone: row.phone,
    prompt_sent_at: (row.chargeRequestedAt ?? row.updatedAt).toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}

function refusalFor(row: Row): AppError {
  return new AppError(
    'payment_pending',
    `Your payment ${row.reference} of ${formatUgx(row.amountUgx)} for ${row.planName} is still waiting for approval ` +
      'on your phone. Approve it with your PIN, send the prompt again, or cancel it before you buy again.',
  );
}

/** A second purchase while one waits for the phone could be charged twice if the late prompt is approved too. */
export async function assertNoWaitingPayment(exec: Executor, user: UserRow): Promise<void> {
  const row = await waitingPaymentRow(exec, user.id);
  if (row) throw refusalFor(row);
}

/** The refusal after the unique index stopped a concurrent second charge. */
export async function waitingRefusal(exec: Executor, user: UserRow): Promise<AppError> {
  const row = await waitingPaymentRow(exec, user.id);
  return row
    ? refusalFor(row)
    : new AppError(
        'payment_pending',
        'Another payment was just started. Please look at your payments before paying again.',
      );
}

export const PAID_AFTER_CANCEL = 'Paid after the payer cancelled: activate the plan or refund the payer.';

/**
 * A cancelled payment's token was closed at DPO, so a late approval should be refused there. Should DPO still push
 * it as paid, the money is not lost nor silently activated: the payment goes to review, once (decision 0181).
 */
export async function pushAfterCancel(deps: WaitingDeps, payment: Row): Promise<void> {
  if (payment.status !== 'failed' || !payment.dpoToken) return;
  let result;
  try {
    result = await deps.payments.verifyToken(payment.dpoToken);
  } catch (error) {
    deps.logger.warn({ paymentId: payment.id, err: error }, 'verify after a push for a cancelled payment failed');
    return;
  }
  if (result.outcome !== 'paid') return;
  const [flagged] = await deps.database.db
    .update(payments)
    .set({
      status: 'review',
      resultCode: result.code || null,
      resultExplanation: PAID_AFTER_CANCEL,
      reportedAmount: result.transactionAmount ?? result.transactionFinalAmount ?? null,
      reportedCurrency: result.transactionCurrency ?? result.transactionFinalCurrency ?? null,
      updatedAt: deps.clock.now(),
    })
    .where(and(eq(payments.id, payment.id), eq(payments.status, 'failed'), isNotNull(payments.cancelledAt)))
    .returning({ id: payments.id });
  if (flagged) deps.logger.warn({ paymentId: payment.id }, 'cancelled payment reported paid; sent to review');
}
