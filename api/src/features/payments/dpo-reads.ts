import { and, eq, sql } from 'drizzle-orm';
import { payments } from '../../db/schema.ts';
import { countHits, type LimitHit } from '../rate-limit/limiter.ts';
import { dpoReads } from '../rate-limit/limits.ts';
import type { PaymentDeps, PaymentRow } from './payment-rules.ts';

export interface Look {
  /** The payment after DPO was asked, or as stored when it was not. */
  payment: PaymentRow;
  /** Whether DPO was asked (by this read or one it joined). */
  asked: boolean;
}

/** Looks under way, per database, by payment id: concurrent reads in one process wait for one answer. */
const underWay = new WeakMap<object, Map<string, Promise<Look>>>();

/**
 * A pending payment as DPO sees it, at a bounded cost (decision 0115): at most one verifyToken per payment per
 * window, whoever asks (payer, result page or DPO's push), and `accountId`'s hourly ceiling when a person asks. In
 * between, the stored state is the answer. Reads of one payment that arrive while a look is under way in this
 * process share its answer, so a burst of polls sees the state DPO gave, not the one it replaced.
 */
export function lookAtPayment(
  deps: PaymentDeps,
  payment: PaymentRow,
  check: (payment: PaymentRow) => Promise<PaymentRow>,
  accountId?: string,
): Promise<Look> {
  if (payment.status !== 'pending' || !payment.dpoToken) return Promise.resolve({ payment, asked: false });
  let looks = underWay.get(deps.database);
  if (!looks) underWay.set(deps.database, (looks = new Map()));
  const running = looks.get(payment.id);
  if (running) return running;
  const look = (async (): Promise<Look> => {
    if (await mayAskDpo(deps, payment, accountId)) return { payment: await check(payment), asked: true };
    const [stored] = await deps.database.db.select().from(payments).where(eq(payments.id, payment.id));
    return { payment: stored ?? payment, asked: false };
  })().finally(() => looks.delete(payment.id));
  looks.set(payment.id, look);
  return look;
}

/** Counts one DPO read of `payment` (and of `accountId`); false when a limit says to serve the stored state. */
async function mayAskDpo(deps: PaymentDeps, payment: PaymentRow, accountId?: string): Promise<boolean> {
  const hits: LimitHit[] = [{ limit: dpoReads.perPayment, subject: payment.id }];
  if (accountId) hits.push({ limit: dpoReads.perAccount, subject: accountId });
  return !(await countHits(deps.database.db, deps.clock.now(), hits));
}

/**
 * A push that arrived while DPO had just been asked: what it announces may have happened since, so the reconciler
 * looks once the window is over instead of at its backed-off time.
 */
export async function checkSoon(deps: PaymentDeps, payment: PaymentRow): Promise<void> {
  const at = new Date(deps.clock.now().getTime() + dpoReads.perPayment.windowSeconds * 1000);
  await deps.database.db
    .update(payments)
    .set({ nextCheckAt: sql`least(${payments.nextCheckAt}, ${at.toISOString()}::timestamptz)` })
    .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')));
}
