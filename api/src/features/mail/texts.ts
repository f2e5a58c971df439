import { displayUgandaPhone, serverTranslator, SUPPORT, type Locale } from '@filamu/shared';

/**
 * The mails a subscriber gets, in their language (decision 0258), from the `server` catalogue. Agents' mails stay in
 * English, like the consoles (decision 0258).
 */
export interface MailText {
  subject: string;
  body: string;
}

/** A receipt's facts, each worded once for the SMS, the push and the mail (sms/texts.ts `receiptFacts`). */
export interface ReceiptFacts {
  amount: string;
  plan: string;
  accessUntil: string;
  reference: string;
}

/** The payment receipt mail. */
export function receiptMail(name: string, facts: ReceiptFacts, locale: Locale = 'en'): MailText {
  const { t } = serverTranslator(locale);
  return { subject: t('mail.receipt.subject'), body: t('mail.receipt.body', { name, ...facts }) };
}

/** A recovery code by mail: the SMS's words, and what to do when it was not asked for. */
export function recoveryCodeMail(codeText: string, locale: Locale = 'en'): MailText {
  const { t } = serverTranslator(locale);
  return { subject: t('mail.code.subject'), body: `${codeText}\n\n${t('mail.code.notAsked')}` };
}

/** After a reset by SMS code, to the account's email (decision 0197). */
export function resetBySmsMail(locale: Locale = 'en'): MailText {
  const { t } = serverTranslator(locale);
  return {
    subject: t('mail.resetBySms.subject'),
    body: t('mail.resetBySms.body', { supportPhone: SUPPORT.phone, supportEmail: SUPPORT.email }),
  };
}

/** An unproven number taken by the person who proved it (decision 0199). */
export function phoneReleasedMail(p: { name: string; phone: string; email: string }, locale: Locale = 'en'): MailText {
  const { t } = serverTranslator(locale);
  return {
    subject: t('mail.phoneReleased.subject'),
    body: t('mail.phoneReleased.body', {
      name: p.name,
      phone: displayUgandaPhone(p.phone),
      email: p.email,
      supportPhone: SUPPORT.phone,
      supportEmail: SUPPORT.email,
    }),
  };
}
