import { describe, expect, it } from 'vitest';
import { phoneReleasedMail, receiptMail, resetBySmsMail } from '../mail/texts.ts';
import { receiptFacts } from '../sms/texts.ts';
import { newMoviesPush, nightWindowPush, receiptPush, reminderPush } from './texts.ts';

// 23:59 Kampala on 31 December 2026, as plans are entered.
const END = new Date('2026-12-31T20:59:00.000Z');
const RECEIPT = { amountUgx: 15_000, planName: 'Monthly', accessUntil: END, reference: 'FLM-7K3Q9' };

/** Decision 0258: what a person reads in the notification shade and the mailbox, in the account's language. */
describe('push and mail texts in both languages', () => {
  it('the receipt push states the same facts as the SMS, in English and in Luganda', () => {
    expect(receiptPush(RECEIPT)).toEqual({
      title: 'Payment received',
      body: 'UGX 15,000 for Monthly. Access until 31 Dec 2026, 11:59 PM. Ref FLM-7K3Q9.',
    });
    const luganda = receiptPush(RECEIPT, 'lg');
    expect(luganda.title).toBe('Okusasula kutuuse');
    // The date through CLDR `lg` (Desemba → "Des"), the amount and the reference untouched.
    expect(luganda.body).toMatch(/^UGX 15,000 ku pulaani Monthly\. Ekola okutuusa .*Des.*2026.* Ref FLM-7K3Q9\.$/);
  });

  it('plural titles follow each language’s rule', () => {
    expect(newMoviesPush(1).title).toBe('A new Kinayuganda movie');
    expect(newMoviesPush(3)).toEqual({
      title: '3 new Kinayuganda movies',
      body: 'Download them on Filamu while you have Wi-Fi or data.',
    });
    expect(newMoviesPush(1, 'lg').title).toBe("Firimu empya ey'Ekinayuganda");
    expect(newMoviesPush(3, 'lg').title).toBe("Firimu 3 empya ez'Ekinayuganda");
    expect(newMoviesPush(3, 'lg').body).toMatch(/^Zi-download/);
  });

  it('the reminder and the night bundle push differ by language and keep the plan’s name', () => {
    const reminder = { kind: 'plan_ends_today' as const, planName: 'Weekly', accessUntil: END };
    expect(reminderPush(reminder).title).toBe('Your Filamu plan ends today');
    expect(reminderPush(reminder, 'lg').title).toBe('Pulaani yo eya Filamu ekoma leero');
    expect(reminderPush(reminder, 'lg').body).toMatch(/^Weekly: ekola okutuusa .*Des/);
    expect(nightWindowPush('lg').body).not.toBe(nightWindowPush('en').body);
  });

  it('mails greet by name and keep every fact and the support contacts in both languages', () => {
    for (const locale of ['en', 'lg'] as const) {
      const receipt = receiptMail('Nakato Sarah', receiptFacts(RECEIPT, locale), locale);
      for (const fact of ['Nakato Sarah', 'UGX 15,000', 'Monthly', 'FLM-7K3Q9']) expect(receipt.body).toContain(fact);
      const released = phoneReleasedMail({ name: 'Nakato', phone: '256772123456', email: 'n@example.com' }, locale);
      expect(released.body).toContain('0772 123 456');
      expect(released.body).toContain('n@example.com');
      expect(resetBySmsMail(locale).body).toMatch(/\+256/);
    }
    expect(receiptMail('A', receiptFacts(RECEIPT), 'lg').subject).not.toBe(
      receiptMail('A', receiptFacts(RECEIPT)).subject,
    );
  });
});
