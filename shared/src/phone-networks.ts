/** The two mobile-money networks Filamu takes payments through. */
export type MoneyNetwork = 'mtn' | 'airtel';

/**
 * Who holds each Ugandan mobile number range, by the national number's first digits (after 0 or 256).
 * The longest matching prefix wins, so `7240` (Hamilton Telecom) overrides `724` (MTN).
 *
 * Source: the Uganda Communications Commission's number allocations (the national numbering plan puts mobile
 * numbers in the 07 block, nine-digit national numbers), as carried by libphonenumber's carrier data for +256,
 * release 9.0.35 of 16 July 2026 — the UCC publishes no per-range list we could read directly. Checked against
 * the press: MTN stopped issuing 077/078 in June 2021 and got new ranges (076, then 079x); Africell closed on
 * 7 October 2021, its 0798/0799 numbers left dead; Airtel holds Warid's old 070. Table dated 24 November 2026.
 * Uganda has no mobile number portability, so a number's range still names its network.
 * Fixed lines (MTN 031/039, UTL 041…, 020) are outside the 07 block and never here.
 */
export const UGANDA_MOBILE_RANGES: ReadonlyArray<{ prefix: string; holder: string; network: MoneyNetwork | null }> = [
  { prefix: '76', holder: 'MTN', network: 'mtn' },
  { prefix: '77', holder: 'MTN', network: 'mtn' },
  { prefix: '78', holder: 'MTN', network: 'mtn' },
  { prefix: '790', holder: 'MTN', network: 'mtn' },
  { prefix: '791', holder: 'MTN', network: 'mtn' },
  { prefix: '792', holder: 'MTN', network: 'mtn' },
  { prefix: '793', holder: 'MTN', network: 'mtn' },
  { prefix: '794', holder: 'MTN', network: 'mtn' },
  { prefix: '724', holder: 'MTN', network: 'mtn' },
  { prefix: '737', holder: 'MTN', network: 'mtn' },
  { prefix: '70', holder: 'Airtel', network: 'airtel' },
  { prefix: '74', holder: 'Airtel', network: 'airtel' },
  { prefix: '75', holder: 'Airtel', network: 'airtel' },
  { prefix: '730', holder: 'Airtel', network: 'airtel' },
  { prefix: '731', holder: 'Airtel', network: 'airtel' },
  { prefix: '795', holder: 'Airtel', network: 'airtel' },
  // Mobile numbers neither mobile-money network serves.
  { prefix: '71', holder: 'UTL', network: null },
  { prefix: '720', holder: 'Smile', network: null },
  { prefix: '721', holder: 'Lycamobile', network: null },
  { prefix: '7210', holder: 'Savanna', network: null },
  { prefix: '7240', holder: 'Hamilton Telecom', network: null },
  { prefix: '726', holder: 'Lycamobile', network: null },
  { prefix: '727', holder: 'Lycamobile', network: null },
  { prefix: '728', holder: 'Talkio', network: null },
  { prefix: '736', holder: 'Hamilton Telecom', network: null },
  { prefix: '798', holder: 'Africell (closed)', network: null },
  { prefix: '799', holder: 'Africell (closed)', network: null },
];

const RANGES = new Map(UGANDA_MOBILE_RANGES.map((r) => [r.prefix, r]));
const LONGEST_PREFIX = Math.max(...UGANDA_MOBILE_RANGES.map((r) => r.prefix.length));

/** Longer than any spelling of a number with spaces to spare: refused before it is read. */
export const PHONE_INPUT_MAX = 32;

/** Real examples for messages and hints (never a UTL 071 number). */
export const PHONE_EXAMPLE: Record<MoneyNetwork, string> = { mtn: '0772 123 456', airtel: '0752 123 456' };

/**
 * The nine-digit national number of a typed Uganda number (`0772…`, `256772…`, `+256 772 …`), or null.
 * Every non-digit is dropped (product description: spaces, dashes and brackets are how people type numbers); no regex.
 */
export function ugandaNationalNumber(raw: string): string | null {
  if (raw.length > PHONE_INPUT_MAX) return null;
  let digits = '';
  for (const ch of raw) if (ch >= '0' && ch <= '9') digits += ch;
  if (digits.length === 10 && digits.startsWith('0')) return digits.slice(1);
  if (digits.length === 12 && digits.startsWith('256')) return digits.slice(3);
  return null;
}

export interface NumberNetwork {
  /** `256XXXXXXXXX` when the input spells a Uganda number of the right length, else null. */
  canonical: string | null;
  /** The mobile-money network that serves it; null for any other holder, an unallocated range or junk. */
  network: MoneyNetwork | null;
  /** Who holds the range ('MTN', 'UTL', 'Lycamobile'…), null when no range matches. */
  holder: string | null;
}

/** The range that holds a national number (or its typed beginning), longest prefix first. */
export function rangeOf(national: string): (typeof UGANDA_MOBILE_RANGES)[number] | null {
  for (let length = Math.min(LONGEST_PREFIX, national.length); length >= 2; length--) {
    const range = RANGES.get(national.slice(0, length));
    if (range) return range;
  }
  return null;
}

/** Which network a typed number belongs to: `networkOfNumber('0752 123 456')` → airtel, `256752123456`. */
export function networkOfNumber(raw: string): NumberNetwork {
  const national = ugandaNationalNumber(raw);
  if (!national) return { canonical: null, network: null, holder: null };
  const range = rangeOf(national);
  return { canonical: `256${national}`, network: range?.network ?? null, holder: range?.holder ?? null };
}

/**
 * The network of a number still being typed, once its first digits say (`0752` → airtel), so the payment step can
 * offer the right method before the number is complete. Null while unknown.
 */
export function networkWhileTyping(raw: string): { network: MoneyNetwork | null; holder: string } | null {
  if (raw.length > PHONE_INPUT_MAX) return null;
  let digits = '';
  for (const ch of raw) if (ch >= '0' && ch <= '9') digits += ch;
  const national = digits.startsWith('0') ? digits.slice(1) : digits.startsWith('256') ? digits.slice(3) : null;
  if (national === null || national.length > 9) return null;
  const range = rangeOf(national);
  if (!range) return null;
  // '72' alone could still become MTN's 724 or Lycamobile's 726: wait for the digit that decides.
  const longer = UGANDA_MOBILE_RANGES.some(
    (r) => r.prefix.length > national.length && r.prefix.startsWith(national) && r.network !== range.network,
  );
  return longer ? null : { network: range.network, holder: range.holder };
}
