import { formatDate, formatDateTime, formatTime, formatUgx, serverTranslator, type Locale } from '@filamu/shared';
import { GSM_7, GSM_7_EXTENDED, GSM_LOOK_ALIKES } from './protocol.ts';

/**
 * Everything Filamu says by SMS, in one place so the texts, their lengths and docs/sms-texts.md stay in step
 * (decision 0149), in the person's language (decision 0258): the words come from the `server` message catalogue,
 * English or Luganda, both GSM-7 and one part wherever the English is (texts.test.ts holds both to it). Texts people
 * typed (plan names) are made GSM-7 and cut to fit, so a receipt or a reminder is one part: 160 septets, where one
 * non-GSM character would make it 70.
 */

export const ONE_PART_SEPTETS = 160;
const CUT = '...';

/** Septets a text takes in GSM-7 (extension characters count two); null when one character needs UCS-2. */
export function gsmSeptets(text: string): number | null {
  let septets = 0;
  for (const ch of text) {
    if (GSM_7.includes(ch)) septets += 1;
    else if (GSM_7_EXTENDED.includes(ch)) septets += 2;
    else return null;
  }
  return septets;
}

/** Typed text as GSM-7: typographic quotes and dashes straightened, accents dropped, anything else a space. */
export function toGsm7(text: string): string {
  let out = '';
  for (const ch of text.replace(/\s+/g, ' ')) {
    if (gsmSeptets(ch) !== null) out += ch;
    else if (GSM_LOOK_ALIKES[ch]) out += GSM_LOOK_ALIKES[ch];
    else {
      const bare = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      out += gsmSeptets(bare) !== null && bare.length > 0 ? bare : ' ';
    }
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/**
 * `make(name)` with the name cut (ending "...") so the whole text is one part; never below `minimum` characters of
 * the name (a long link then makes two parts rather than an unreadable name).
 */
function fitName(make: (name: string) => string, typed: string, minimum = 12): string {
  const name = toGsm7(typed) || 'Filamu';
  if ((gsmSeptets(make(name)) ?? Infinity) <= ONE_PART_SEPTETS) return name;
  const chars = [...name];
  for (let keep = chars.length - 1; keep >= minimum; keep--) {
    const cut = `${chars.slice(0, keep).join('').trimEnd()}${CUT}`;
    if ((gsmSeptets(make(cut)) ?? Infinity) <= ONE_PART_SEPTETS) return cut;
  }
  return `${chars.slice(0, minimum).join('').trimEnd()}${CUT}`;
}

/**
 * The last day of access through the one date formatter, `31 Dec 2026`: the day of the last millisecond of access,
 * so a plan ending at midnight reads "until 31 Dec 2026", not "until 1 Jan 2027" (decision 0149).
 */
export function lastAccessDay(accessUntil: Date, locale: Locale = 'en'): string {
  const day = new Date(accessUntil.getTime() - 1);
  // Luganda through the one formatter (CLDR `lg`: `31 Des 2026`); English keeps its hand-written form (0239).
  return locale === 'en' ? formatDate(day) : serverTranslator(locale).date(day, { dateStyle: 'medium' });
}

/** `2:00 AM` on Kampala's clock (`02:00` in Luganda), or `midnight`. */
function endTime(accessUntil: Date, locale: Locale = 'en'): string {
  const time = formatTime(accessUntil);
  if (time === '12:00 AM') return 'midnight';
  return locale === 'en' ? time : serverTranslator(locale).date(accessUntil, { timeStyle: 'short' });
}

/** When access ends, as exactly as a receipt can say it: `31 Dec 2026` for a midnight end, else `25 Nov 2026, 2:00 AM`. */
function accessUntilText(accessUntil: Date, locale: Locale = 'en'): string {
  if (endTime(accessUntil) === 'midnight') return lastAccessDay(accessUntil, locale);
  if (locale === 'en') return formatDateTime(accessUntil);
  return serverTranslator(locale).date(accessUntil, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A completed payment, as its receipts state it. */
export interface Receipt {
  amountUgx: number;
  planName: string;
  accessUntil: Date;
  /** The payment's short reference (FLM-7K3Q9): what a person quotes to support, and admins search. */
  reference: string;
}

/**
 * What every receipt says — the SMS, the mail and the push — each fact worded once: `UGX 15,000`, the plan's name,
 * access until `31 Dec 2026, 11:59 PM` (the same moment to the minute everywhere), and the reference.
 */
export function receiptFacts(receipt: Receipt, locale: Locale = 'en') {
  return {
    amount: formatUgx(receipt.amountUgx),
    plan: receipt.planName,
    accessUntil: accessUntilText(receipt.accessUntil, locale),
    reference: receipt.reference,
  };
}

export function receiptText(receipt: Receipt, locale: Locale = 'en') {
  const facts = receiptFacts(receipt, locale);
  const { t } = serverTranslator(locale);
  const make = (plan: string) => t('sms.receipt', { ...facts, plan });
  return make(fitName(make, facts.plan));
}

export function reminderText(
  p: {
    kind: 'plan_ends_in_3_days' | 'plan_ends_today';
    planName: string;
    accessUntil: Date;
    renewUrl: string;
  },
  locale: Locale = 'en',
) {
  const { t } = serverTranslator(locale);
  const when =
    p.kind === 'plan_ends_today'
      ? endTime(p.accessUntil) === 'midnight'
        ? t('sms.reminder.tonight')
        : t('sms.reminder.today', { time: endTime(p.accessUntil, locale) })
      : t('sms.reminder.on', { date: lastAccessDay(p.accessUntil, locale) });
  const make = (plan: string) => t('sms.reminder', { plan, when, renewUrl: p.renewUrl });
  return make(fitName(make, p.planName));
}

/** The agent's sign-in by SMS; its password is the outbox row's secret (withheld once sent: decision 0151). */
export function agentCredentialsText(p: { email: string; password: string; loginUrl: string; reset: boolean }) {
  const what = p.reset ? 'New Filamu agent password' : 'Your Filamu agent account';
  return `${what}. Sign in at ${p.loginUrl} (Agent login). Email: ${p.email} Password: ${p.password} Keep it private.`;
}

/** The code that proves a new number is the person's (decision 0158); purpose `phone_change_code`, never resent. */
export function phoneChangeCodeText(code: string, minutes: number, locale: Locale = 'en') {
  return serverTranslator(locale).t('sms.phoneCode', { code, minutes });
}

/** The account recovery code (decision 0148), by SMS to a proven phone. */
export function recoveryCodeText(code: string, minutes: number, locale: Locale = 'en') {
  return serverTranslator(locale).t('sms.recoveryCode', { code, minutes });
}

/** `0752...456`: enough for the owner to recognise, not the whole number. */
function maskedPhone(canonical: string) {
  const local = canonical.startsWith('256') ? `0${canonical.slice(3)}` : canonical;
  return `${local.slice(0, 4)}...${local.slice(-3)}`;
}

/** To the old number once the change is made, so a stolen session that moved the number is noticed. */
export function phoneChangedNoticeText(newPhone: string, locale: Locale = 'en') {
  return serverTranslator(locale).t('sms.phoneChanged', { maskedPhone: maskedPhone(newPhone) });
}

/** To a proven phone after a reset by email code (decision 0197): a reset through someone else's mailbox is noticed. */
export function resetByEmailNoticeText(supportPhone: string, locale: Locale = 'en') {
  return serverTranslator(locale).t('sms.resetByEmail', { supportPhone });
}

/** To a proven phone when support grants a re-download (decision 0214): grants are not per movie, so none is named. */
export const redownloadGrantedText = (locale: Locale = 'en') => serverTranslator(locale).t('sms.redownloadGranted');

/**
 * A subscriber's new password, to a proven phone only (decision 0214); its outbox row forgets the password once sent,
 * like an agent's (decision 0151).
 */
export function subscriberPasswordText(password: string, locale: Locale = 'en') {
  return serverTranslator(locale).t('sms.subscriberPassword', { password });
}
