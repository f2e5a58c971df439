import type { Executor } from '../../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import { receiptMail } from '../mail/texts.ts';
import { queuePush } from '../push/outbox.ts';
import { receiptPush } from '../push/texts.ts';
import { queueSms } from '../sms/outbox.ts';
import { type Receipt, receiptFacts, receiptText } from '../sms/texts.ts';

/**
 * The receipts of an activation: a mail, an SMS to the registered phone, a push. Each renders the same facts
 * (`receiptFacts`), so the amount, plan, end and reference never differ between them. Run in the transaction that
 * completed the payment, so each exists exactly when the activation does.
 */
export async function queueReceipts(
  deps: { mailer: Mailer },
  tx: Executor,
  now: Date,
  payer: { id: string; email: string; fullName: string; phone: string | null; language?: 'en' | 'lg' },
  receipt: Receipt,
): Promise<void> {
  await deps.mailer.queue(tx, {
    to: payer.email,
    kind: 'receipt',
    ...receiptMail(payer.fullName, receiptFacts(receipt, payer.language), payer.language),
  });
  if (payer.phone) {
    await queueSms(tx, now, {
      to: payer.phone,
      text: receiptText(receipt, payer.language),
      purpose: 'payment_receipt',
    });
  }
  // For a payer who closed the page while the phone prompt was open; the service worker stays quiet when the app is
  // on screen (decision 0154).
  await queuePush(tx, now, payer.id, {
    kind: 'payment_confirmed',
    ...receiptPush(receipt, payer.language),
    url: '/dashboard',
  });
}
