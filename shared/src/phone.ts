/**
 * Uganda mobile numbers (product §5, §9): (256 or leading 0), then 7 and any digit or 20, then 7 digits.
 * Every accepted spelling — 0772…, 256772…, +256 772 … — maps to one canonical form, 256XXXXXXXXX,
 * so the same phone can never hold two accounts.
 */
export const UGANDA_PHONE_PATTERN = /^(256|0)(7\d|20)\d{7}$/;

export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '');
}

export function isValidUgandaPhone(value: string): boolean {
  return UGANDA_PHONE_PATTERN.test(digitsOnly(value));
}

/** Canonical form `256XXXXXXXXX`, or null when the value is not a Uganda mobile number. */
export function canonicalUgandaPhone(value: string): string | null {
  const digits = digitsOnly(value);
  if (!UGANDA_PHONE_PATTERN.test(digits)) return null;
  return digits.startsWith('0') ? `256${digits.slice(1)}` : digits;
}

/** Local display form `0772 123 456`. */
export function displayUgandaPhone(canonical: string): string {
  const local = canonical.startsWith('256') ? `0${canonical.slice(3)}` : canonical;
  return local.replace(/^(\d{4})(\d{3})(\d{3})$/, '$1 $2 $3');
}

/** A stored number as people write it (`0752 345 675`), anything else as it is, and a dash for none. */
export function phoneForPeople(value: string | null | undefined): string {
  if (!value) return '—';
  const canonical = canonicalUgandaPhone(value);
  return canonical ? displayUgandaPhone(canonical) : value;
}
