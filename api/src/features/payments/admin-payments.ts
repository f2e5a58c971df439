import {
  PAYMENT_STATUSES,
  type AdminPayment,
  type AdminPaymentList,
  type AdminPaymentListQuery,
  type AdminPaymentResult,
  type PaymentStatus,
  type PaymentStatusCounts,
  ResolvePaymentRequest,
  canonicalUgandaPhone,
  PAYMENT_REFERENCE_LENGTH,
  PAYMENT_REFERENCE_PREFIX,
} from '@filamu/shared';
import { and, count, desc, eq, ilike, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { payments, subscriptionPlans, users } from '../../db/schema.ts';
import { conflict, notFound } from '../../http/errors.ts';
import type { UserRow } from '../../http/principal.ts';
import { DEFAULT_EXPLANATION, gatewayFailure, type PaymentDeps, type PaymentRow } from './payment-rules.ts';
import { activate, checkPayment, reload } from './settlement.ts';

const reviewer = alias(users, 'reviewer');
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

const NOT_IN_REVIEW = 'Only payments waiting for review can be resolved.';
const ONLY_PENDING = 'Only pending payments can be checked with DPO.';

const selection = {
  payment: payments,
  payer: { id: users.id, fullName: users.fullName, email: users.email },
  reviewer: { id: reviewer.id, fullName: reviewer.fullName, email: reviewer.email },
};

type Joined = { payment: PaymentRow; payer: Person | null; reviewer: Person | null };
type Person = { id: string; fullName: string; email: string };

function present({ payment: p, payer, reviewer: by }: Joined): AdminPayment {
  return {
    id: p.id,
    reference: p.reference,
    user: payer,
    planId: p.planId,
    planName: p.planName,
    amount: p.amountUgx,
    currency: p.currency,
    phone: p.phone,
    mno: p.mno,
    dpoToken: p.dpoToken,
    dpoReference: p.dpoTransRef,
    status: p.status,
    resultCode: p.resultCode,
    explanation: p.resultExplanation ?? DEFAULT_EXPLANATION[p.status],
    reportedAmount: p.reportedAmount,
    reportedCurrency: p.reportedCurrency,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    settledAt: p.completedAt?.toISOString() ?? (p.status === 'pending' ? null : p.updatedAt.toISOString()),
    resolution:
      p.reviewResolution && p.reviewedAt
        ? { action: p.reviewResolution, note: p.reviewNote ?? '', at: p.reviewedAt.toISOString(), by }
        : null,
  };
}

function joined(exec: Executor) {
  return exec
    .select(selection)
    .from(payments)
    .leftJoin(users, eq(users.id, payments.userId))
    .leftJoin(reviewer, eq(reviewer.id, payments.reviewedBy));
}

async function presentOne(exec: Executor, id: string): Promise<AdminPayment> {
  const [row] = await joined(exec).where(eq(payments.id, id));
  if (!row) throw notFound('Payment');
  return present(row);
}

/**
 * What support types for a number or a reference, as stored: `0701 234 566` and `0701234566` find `256701234566`,
 * `flm9mzeg` finds `FLM-9MZEG`. String work only (the search is request data).
 */
export function searchSpellings(search: string): { phone: string | null; reference: string | null } {
  const phone = canonicalUgandaPhone(search);
  const letters = PAYMENT_REFERENCE_PREFIX.replace('-', '');
  const compact = search.replaceAll(' ', '').replaceAll('-', '').toUpperCase();
  const reference =
    compact.length === letters.length + PAYMENT_REFERENCE_LENGTH && compact.startsWith(letters)
      ? PAYMENT_REFERENCE_PREFIX + compact.slice(letters.length)
      : null;
  return { phone, reference };
}

function searchFilter(search: string | undefined) {
  if (!search) return undefined;
  const pattern = likePattern(search);
  const spelled = searchSpellings(search);
  return or(
    ilike(payments.reference, pattern),
    ilike(users.email, pattern),
    ilike(users.fullName, pattern),
    ilike(payments.phone, pattern),
    ilike(payments.dpoToken, pattern),
    ilike(payments.dpoTransRef, pattern),
    ilike(sql`${payments.id}::text`, pattern),
    spelled.phone ? or(eq(payments.phone, spelled.phone), eq(users.phone, spelled.phone)) : undefined,
    spelled.reference ? eq(payments.reference, spelled.reference) : undefined,
  );
}

/**
 * A payment is the admin's business once a prompt was asked for or money came (the payer's history follows the same
 * rule, decision 0180): opening the payment page and leaving is not a payment, and is neither listed nor counted.
 */
const isPayment = or(isNotNull(payments.chargeRequestedAt), inArray(payments.status, ['completed', 'review']));

export async function listAdminPayments(
  deps: PaymentDeps,
  query: z.output<typeof AdminPaymentListQuery>,
): Promise<AdminPaymentList> {
  const db = deps.database.db;
  const search = searchFilter(query.search);
  const filters = and(isPayment, query.status ? eq(payments.status, query.status) : undefined, search);
  const [rows, perStatus, [review]] = await Promise.all([
    joined(db)
      .where(filters)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db
      .select({ status: payments.status, n: count() })
      .from(payments)
      .leftJoin(users, eq(users.id, payments.userId))
      .where(and(isPayment, search))
      .groupBy(payments.status),
    db.select({ n: count() }).from(payments).where(eq(payments.status, 'review')),
  ]);
  const counts = Object.fromEntries([['all', 0], ...PAYMENT_STATUSES.map((s) => [s, 0])]) as PaymentStatusCounts;
  for (const { status, n } of perStatus) {
    counts[status as PaymentStatus] = n;
    counts.all += n;
  }
  const total = query.status ? counts[query.status] : counts.all;
  return {
    payments: rows.map(present),
    page: query.page,
    pageSize: query.pageSize,
    total,
    pageCount: Math.max(1, Math.ceil(total / query.pageSize)),
    counts,
    needsReview: review?.n ?? 0,
  };
}

/**
 * An admin's decision on a `review` payment. One conditional UPDATE … WHERE status = 'review' RETURNING decides
 * who wins a double-click; only the winner activates, in the same transaction, so a refusal of the activation
 * (plan ended, payer deleted) rolls the decision back too.
 */
export async function resolvePayment(
  deps: PaymentDeps,
  admin: UserRow,
  id: string,
  input: z.output<typeof ResolvePaymentRequest>,
): Promise<AdminPaymentResult> {
  const now = deps.clock.now();
  const activating = input.action === 'activate';
  const message = await deps.database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(payments)
      .set({
        status: activating ? 'completed' : 'failed',
        completedAt: activating ? now : null,
        reviewResolution: activating ? 'activated' : 'refused',
        reviewNote: input.note,
        reviewedBy: admin.id,
        reviewedAt: now,
        updatedAt: now,
      })
      .where(and(eq(payments.id, id), eq(payments.status, 'review')))
      .returning();
    if (!row) throw await notResolvable(tx, id);
    if (!activating) return 'Payment refused.';
    await assertActivatable(tx, row, now);
    await activate(deps, tx, row, now);
    return 'Subscription activated.';
  });
  deps.logger.info({ paymentId: id, action: input.action, adminId: admin.id }, 'payment review resolved');
  return { payment: await presentOne(deps.database.db, id), message };
}

async function notResolvable(exec: Executor, id: string) {
  const current = await reload(exec, id);
  if (!current) return notFound('Payment');
  if (current.reviewResolution) {
    const verb = current.reviewResolution === 'activated' ? 'activated' : 'refused';
    return conflict(`This payment was already resolved (${verb}).`);
  }
  return conflict(`${NOT_IN_REVIEW} This one is ${current.status}.`);
}

async function assertActivatable(exec: Executor, payment: PaymentRow, now: Date) {
  if (!payment.userId) throw conflict("The payer's account was deleted, so there is no one to activate. Refuse it.");
  const [plan] = await exec.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, payment.planId));
  if (!plan || plan.globalExpiryAt.getTime() <= now.getTime()) {
    throw conflict('The plan of this payment has ended, so it cannot be activated. Refuse it and refund the payer.');
  }
}

/** The reconciler's own verifyToken + settle for one pending payment, on an admin's request. */
export async function recheckPayment(deps: PaymentDeps, id: string): Promise<AdminPaymentResult> {
  const payment = await reload(deps.database.db, id);
  if (!payment) throw notFound('Payment');
  if (payment.status !== 'pending') throw conflict(`${ONLY_PENDING} This one is ${payment.status}.`);
  if (!payment.dpoToken) throw conflict('This payment was never started with DPO; it expires on its own.');
  let after: PaymentRow;
  try {
    after = await checkPayment(deps, payment);
  } catch (error) {
    gatewayFailure(deps, error, { paymentId: id, step: 'verifyToken', by: 'admin' });
  }
  return { payment: await presentOne(deps.database.db, id), message: recheckMessage(after) };
}

const RECHECK_MESSAGES: Record<PaymentStatus, string> = {
  pending: 'Still pending: DPO has not received the money yet.',
  completed: 'Completed: subscription activated.',
  failed: 'Failed: DPO says the payment did not go through.',
  expired: 'Expired: the payment time limit passed without payment.',
  review: 'Needs review: the amount or reference did not match.',
};

function recheckMessage(payment: PaymentRow): string {
  return RECHECK_MESSAGES[payment.status];
}
