import { fromBase64url } from './base64url.ts';

/**
 * The codes a person types to unlock a film with no data (decision 0243, 0249). The phone shows a **request code**:
 * the film's short number, three digits taken from the phone's key id, and a Verhoeff check digit over all of them
 * (`1234-567-8`, typed on a USSD keypad as `12345678`). Filamu's USSD service answers with the **unlock code**: 64 bits
 * as 20 decimal digits in groups of four (`0001 8446 7440 7370 9551`), which the app turns into the film's key. Both
 * sides use this module, so the phone and the server agree digit for digit.
 */

/**
 * The code a person dials for Filamu's USSD service, which the app shows offline (so it is built in, not fetched): the
 * Africa's Talking shared code the simulator plays too. A dedicated code from the networks replaces it here.
 */
export const USSD_SERVICE_CODE = '*384*3456#';

/** Digits of the phone's key id in a request code: they only pick one of an account's few phones. */
export const REQUEST_KEY_DIGITS = 3;
/** Films are numbered from here (migration 0033), so a short number has at least four digits. */
export const FIRST_SHORT_NUMBER = 1000;
/** The longest short number a request code carries (ten million films). */
const MAX_SHORT_NUMBER_DIGITS = 7;
/** Anything typed longer than this is not a request code, whatever it holds: read no further. */
const MAX_TYPED_REQUEST = 40;
/** 2^64 − 1 has 20 digits. */
export const UNLOCK_CODE_DIGITS = 20;
export const UNLOCK_CODE_BYTES = 8;
/** HKDF's `info` for the key that seals a film's key: this, then the film's id (decision 0249). */
export const SEALED_FILM_KEY_INFO = 'filamu sealed film key v1|';

// Verhoeff's dihedral-group tables: a check digit that catches every single wrong digit and every swap of two
// neighbours (Luhn misses 09 ↔ 90), the two mistakes people make most with a keypad.
const D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
const INV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

const isDigits = (text: string) => {
  for (const ch of text) if (ch < '0' || ch > '9') return false;
  return text.length > 0;
};

/** The Verhoeff check digit of a string of digits. */
export function verhoeffDigit(digits: string): string {
  let c = 0;
  const n = digits.length;
  for (let i = 0; i < n; i += 1) c = D[c]![P[(i + 1) % 8]![Number(digits[n - 1 - i])]!]!;
  return String(INV[c]);
}

/** Whether digits ending with their check digit hold. */
export function verhoeffHolds(digitsWithCheck: string): boolean {
  let c = 0;
  const n = digitsWithCheck.length;
  for (let i = 0; i < n; i += 1) c = D[c]![P[i % 8]![Number(digitsWithCheck[n - 1 - i])]!]!;
  return c === 0;
}

/** The three digits of a phone's key id (SHA-256 of its key, base64url): its first 32 bits, modulo 1,000. */
export function keyDigitsOf(deviceKeyId: string): string {
  const bytes = fromBase64url(deviceKeyId);
  if (bytes.length < 4) throw new RangeError('Not a key id.');
  const first = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
  return String(first % 10 ** REQUEST_KEY_DIGITS).padStart(REQUEST_KEY_DIGITS, '0');
}

/** The request code a phone shows for a film: `1234-567-8`. */
export function requestCodeOf(shortNumber: number, keyDigits: string): string {
  if (!Number.isSafeInteger(shortNumber) || shortNumber < 0 || String(shortNumber).length > MAX_SHORT_NUMBER_DIGITS) {
    throw new RangeError('Not a short number.');
  }
  if (keyDigits.length !== REQUEST_KEY_DIGITS || !isDigits(keyDigits)) throw new RangeError('Not key digits.');
  const body = `${shortNumber}${keyDigits}`;
  return `${shortNumber}-${keyDigits}-${verhoeffDigit(body)}`;
}

export type ParsedRequestCode =
  | { ok: true; shortNumber: number; keyDigits: string }
  /** `characters`: something but digits (spaces, dashes and `*` are allowed); `length`: too few or too many digits. */
  | { ok: false; reason: 'characters' | 'length' | 'check' };

/** Reads a typed request code; spaces, dashes and `*` between digits are ignored. Bounded: 40 characters at most. */
export function parseRequestCode(typed: string): ParsedRequestCode {
  if (typed.length > MAX_TYPED_REQUEST) return { ok: false, reason: 'length' };
  let digits = '';
  for (const ch of typed) {
    if (ch === ' ' || ch === '-' || ch === '*') continue;
    if (ch < '0' || ch > '9') return { ok: false, reason: 'characters' };
    digits += ch;
  }
  const numberDigits = digits.length - REQUEST_KEY_DIGITS - 1;
  if (numberDigits < 1 || numberDigits > MAX_SHORT_NUMBER_DIGITS) return { ok: false, reason: 'length' };
  if (!verhoeffHolds(digits)) return { ok: false, reason: 'check' };
  return {
    ok: true,
    shortNumber: Number(digits.slice(0, numberDigits)),
    keyDigits: digits.slice(numberDigits, numberDigits + REQUEST_KEY_DIGITS),
  };
}

/** The unlock code as a person reads it: 8 bytes as a 20-digit number, zero-padded, in groups of four. */
export function formatUnlockCode(code: Uint8Array): string {
  if (code.length !== UNLOCK_CODE_BYTES) throw new RangeError('An unlock code is 8 bytes.');
  const value = new DataView(code.buffer, code.byteOffset, UNLOCK_CODE_BYTES).getBigUint64(0);
  const digits = value.toString().padStart(UNLOCK_CODE_DIGITS, '0');
  const groups: string[] = [];
  for (let i = 0; i < UNLOCK_CODE_DIGITS; i += 4) groups.push(digits.slice(i, i + 4));
  return groups.join(' ');
}

/** The 8 bytes of a typed unlock code (spaces and dashes allowed); null when it is not 20 digits under 2^64. */
export function parseUnlockCode(typed: string): Uint8Array<ArrayBuffer> | null {
  if (typed.length > 60) return null;
  let digits = '';
  for (const ch of typed) {
    if (ch === ' ' || ch === '-') continue;
    if (ch < '0' || ch > '9') return null;
    digits += ch;
  }
  if (digits.length !== UNLOCK_CODE_DIGITS) return null;
  const value = BigInt(digits);
  if (value >= 1n << 64n) return null;
  const bytes = new Uint8Array(UNLOCK_CODE_BYTES);
  new DataView(bytes.buffer).setBigUint64(0, value);
  return bytes;
}
