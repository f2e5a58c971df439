// DPO's formats: amounts, dates, phone numbers and its result codes.
import { canonicalUgandaPhone, digitsOnly, trimTrailing } from '@filamu/shared';
import { type VerifyOutcome } from './port.ts';

/** verifyToken codes → outcome (dpo-protocol §6.3; R16). Anything unknown is `error`, which never grants. */
export function verifyOutcome(code: string): VerifyOutcome {
  switch (code) {
    case '000':
      return 'paid';
    case '002':
      return 'review';
    case '001':
    case '003':
    case '005':
    case '007':
    case '900':
      return 'pending';
    case '901':
    case '902':
      return 'declined';
    case '903':
      return 'expired';
    case '904':
      return 'cancelled';
    default:
      return 'error';
  }
}

/** Formats an amount for PaymentAmount: '.' decimal separator, no float noise, whole units for UGX (P1). */
export function formatAmount(amount: number, currency: string): string {
  if (!Number.isFinite(amount) || amount <= 0) throw new RangeError('The amount must be a positive number.');
  if (currency === 'UGX') {
    if (!Number.isSafeInteger(amount)) throw new RangeError('UGX amounts are whole shillings.');
    return String(amount);
  }
  const cents = Math.round(amount * 100);
  if (Math.abs(cents - amount * 100) > 1e-6) throw new RangeError('At most 2 decimals are allowed.');
  return Number.isInteger(amount) ? String(amount) : (cents / 100).toFixed(2);
}

/** Compares two DPO amounts numerically without floating point ('15000' equals '15000.00'). */
export function sameAmount(a: string | number, b: string | number): boolean {
  const norm = (value: string | number) => {
    const s = String(value).trim();
    const match = /^(\d+)(?:\.(\d+))?$/.exec(s);
    if (!match) return null;
    const whole = match[1]!.replace(/^0+(?=\d)/, '');
    const fraction = trimTrailing(match[2] ?? '', '0');
    return fraction ? `${whole}.${fraction}` : whole;
  };
  const left = norm(a);
  return left !== null && left === norm(b);
}

/**
 * The number as DPO's MSISDN, `256XXXXXXXXX`, by the app's one phone rule (`canonicalUgandaPhone` in shared): the
 * forms people type (0772…, +256 772…, 00256…, or 772… without its 0) all reach it. Anything else is passed on as its
 * digits for DPO to refuse; the request schema has refused it before this point.
 */
export function normaliseUgandaPhone(phone: string): string {
  const digits = digitsOnly(phone);
  const withoutInternationalPrefix = digits.startsWith('00') ? digits.slice(2) : digits;
  return (
    canonicalUgandaPhone(withoutInternationalPrefix) ?? canonicalUgandaPhone(`0${withoutInternationalPrefix}`) ?? digits
  );
}

/** ServiceDescription as plain ASCII words, the way DPO's plugin sanitises it (P14). */
export function plainDescription(description: string): string {
  const clean = description
    .replace(/&/g, ' and ')
    .replace(/[<>/]/g, '_')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.slice(0, 200) || 'Payment';
}

/** `YYYY/MM/DD HH:MM` in East Africa Time (UTC+3, no daylight saving). */
export function formatServiceDate(date: Date): string {
  const eat = new Date(date.getTime() + 3 * 60 * 60 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${eat.getUTCFullYear()}/${pad(eat.getUTCMonth() + 1)}/${pad(eat.getUTCDate())} ${pad(eat.getUTCHours())}:${pad(eat.getUTCMinutes())}`;
}
