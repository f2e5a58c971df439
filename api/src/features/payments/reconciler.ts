import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { payments } from '../../db/schema.ts';
import { startIntervalJob } from '../../lib/interval-job.ts';
import { observedPass } from '../metrics/jobs.ts';
import { type PaymentDeps, type PaymentRow } from './payment-rules.ts';
import { checkPayment } from './settlement.ts';

/** Claimed rows are not looked at by another run for this long, even if this one dies mid-way. */
const CLAIM_LEASE_MS = 2 * 60_000;
const RECONCILE_BATCH = 20;

export interface ReconcileReport {
  checked: number;
  settled: number;
  failedChecks: number;
}

/**
 * One reconciliation pass (security R18, C3): re-verifies due pending payments with DPO and settles them.
 * Claiming is a short transaction (SELECT … FOR UPDATE SKIP LOCKED LIMIT 20, then a lease on next_check_at), so
 * concurrent runs never take the same row and no lock is held while DPO is asked.
 */
export async function reconcile(deps: PaymentDeps): Promise<ReconcileReport> {
  const now = deps.clock.now();
  const claimed: PaymentRow[] = await deps.database.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.status, 'pending'), lte(payments.nextCheckAt, now)))
      .orderBy(asc(payments.nextCheckAt))
      .limit(RECONCILE_BATCH)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(payments)
      .set({ nextCheckAt: new Date(now.getTime() + CLAIM_LEASE_MS) })
      .where(
        and(
          inArray(
            payments.id,
            due.map((d) => d.id),
          ),
          eq(payments.status, 'pending'),
        ),
      )
      .returning();
  });

  const report: ReconcileReport = { checked: 0, settled: 0, failedChecks: 0 };
  for (const payment of claimed) {
    report.checked += 1;
    try {
      if (!payment.dpoToken) {
        // Never got a DPO token (the process stopped between our insert and DPO's answer): nothing can be paid.
        if (now.getTime() >= payment.expiresAt.getTime()) {
          await deps.database.db
            .update(payments)
            .set({ status: 'expired', resultExplanation: 'The payment was never started with DPO.', updatedAt: now })
            .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')));
          report.settled += 1;
        }
        continue;
      }
      const after = await checkPayment(deps, payment);
      if (after.status !== 'pending') report.settled += 1;
    } catch (error) {
      // DPO unreachable: the lease brings it back on the next pass.
      report.failedChecks += 1;
      deps.logger.warn({ paymentId: payment.id, err: error }, 'payment reconciliation check failed');
    }
  }
  if (report.checked > 0) deps.logger.info(report, 'payments reconciled');
  return report;
}

/** Runs `reconcile` every `intervalMs`, one pass at a time; returns the stop function. */
export function startReconciler(deps: PaymentDeps, intervalMs: number): () => Promise<void> {
  const onError = (error: unknown) => deps.logger.error({ err: error }, 'payment reconciler pass failed');
  return startIntervalJob(
    observedPass(deps, 'reconciler', () => reconcile(deps), onError),
    intervalMs,
    onError,
  );
}
