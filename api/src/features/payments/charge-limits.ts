import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';
import type { UserRow } from '../../http/principal.ts';
import type { LimitHit } from '../rate-limit/limiter.ts';
import { mobileCharge } from '../rate-limit/limits.ts';

/**
 * A payer's own numbers (decision 0116): the one on the account, and any that approved a payment of the account.
 * Prompts to them are the payer's business, counted against the payer alone; nobody else can use them up.
 */
async function isOwnNumber(exec: Executor, payer: UserRow, phone: string): Promise<boolean> {
  if (payer.phone === phone) return true;
  const [approved] = await exec
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.userId, payer.id), eq(payments.status, 'completed'), eq(payments.phone, phone)))
    .limit(1);
  return approved !== undefined;
}

/**
 * What one mobile charge counts, narrowest first (a refused re-send of one payment does not use up the payer's or
 * the address's allowance). A prompt to someone else's number also counts against that number's allowance for
 * strangers, so no phone is bombed with prompts from many accounts; its owner's own prompts never count there, so
 * strangers cannot lock the owner out of paying with it.
 */
export async function chargeHits(
  exec: Executor,
  payer: UserRow,
  payment: { transactionId: string; phone: string },
  ip: string,
): Promise<LimitHit[]> {
  const perPayment = `${payer.id}:${payment.transactionId}`;
  const own = await isOwnNumber(exec, payer, payment.phone);
  return [
    { limit: mobileCharge.perPaymentMinute, subject: perPayment },
    { limit: mobileCharge.perPayment, subject: perPayment },
    ...(own ? [] : [{ limit: mobileCharge.perPhone, subject: payment.phone }]),
    { limit: mobileCharge.perAccount, subject: payer.id },
    { limit: mobileCharge.perIp, subject: ip },
  ];
}
