import { describe, expect, it } from 'vitest';
import { toBase64url } from './base64url.ts';
import {
  formatUnlockCode,
  keyDigitsOf,
  parseRequestCode,
  parseUnlockCode,
  requestCodeOf,
  verhoeffDigit,
  verhoeffHolds,
} from './request-code.ts';

const digitsOf = (code: string) => code.replaceAll('-', '');

describe('request codes', () => {
  it('computes the Verhoeff check digit of the published example', () => {
    // Verhoeff's worked example: 236 → 3, and 2363 holds.
    expect(verhoeffDigit('236')).toBe('3');
    expect(verhoeffHolds('2363')).toBe(true);
    expect(verhoeffHolds('2364')).toBe(false);
  });

  it('writes and reads back a request code', () => {
    const code = requestCodeOf(1234, '567');
    expect(code).toMatch(/^1234-567-\d$/);
    expect(parseRequestCode(code)).toEqual({ ok: true, shortNumber: 1234, keyDigits: '567' });
    // As typed on a keypad, with spaces, or with the USSD `*` between groups.
    expect(parseRequestCode(digitsOf(code))).toEqual({ ok: true, shortNumber: 1234, keyDigits: '567' });
    expect(parseRequestCode(code.replaceAll('-', ' '))).toMatchObject({ ok: true });
    expect(parseRequestCode(code.replaceAll('-', '*'))).toMatchObject({ ok: true });
    expect(parseRequestCode(requestCodeOf(1, '007'))).toEqual({ ok: true, shortNumber: 1, keyDigits: '007' });
  });

  it('catches every single mistyped digit and every swap of two neighbours', () => {
    for (const shortNumber of [1000, 1234, 48_213, 9_999_999]) {
      for (const keyDigits of ['000', '567', '909']) {
        const digits = digitsOf(requestCodeOf(shortNumber, keyDigits));
        for (let i = 0; i < digits.length; i += 1) {
          for (let d = 0; d <= 9; d += 1) {
            if (String(d) === digits[i]) continue;
            const wrong = digits.slice(0, i) + d + digits.slice(i + 1);
            expect(parseRequestCode(wrong), wrong).toEqual({ ok: false, reason: 'check' });
          }
          if (i + 1 < digits.length && digits[i] !== digits[i + 1]) {
            const swapped = digits.slice(0, i) + digits[i + 1] + digits[i] + digits.slice(i + 2);
            expect(parseRequestCode(swapped), swapped).toEqual({ ok: false, reason: 'check' });
          }
        }
      }
    }
  });

  it('refuses what is not a request code, without reading far', () => {
    expect(parseRequestCode('')).toEqual({ ok: false, reason: 'length' });
    expect(parseRequestCode('1234')).toEqual({ ok: false, reason: 'length' });
    expect(parseRequestCode('12a4-567-8')).toEqual({ ok: false, reason: 'characters' });
    expect(parseRequestCode('1234#5678')).toEqual({ ok: false, reason: 'characters' });
    expect(parseRequestCode('123456789012')).toEqual({ ok: false, reason: 'length' });
    expect(parseRequestCode('1'.repeat(100_000))).toEqual({ ok: false, reason: 'length' });
  });

  it('takes three digits from the phone key id', async () => {
    const keyId = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('a phone key')));
    const expected = String(new DataView(keyId.buffer).getUint32(0) % 1000).padStart(3, '0');
    expect(keyDigitsOf(toBase64url(keyId))).toBe(expected);
    expect(keyDigitsOf(toBase64url(new Uint8Array(32)))).toBe('000');
  });
});

describe('unlock codes', () => {
  it('shows 8 bytes as 20 digits in groups of four, and reads them back', () => {
    const max = new Uint8Array(8).fill(0xff);
    expect(formatUnlockCode(max)).toBe('1844 6744 0737 0955 1615');
    expect(formatUnlockCode(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 1]))).toBe('0000 0000 0000 0000 0001');
    expect([...parseUnlockCode('1844 6744 0737 0955 1615')!]).toEqual([...max]);
    expect([...parseUnlockCode('00000000000000000001')!]).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('refuses codes that are not 20 digits under 2^64', () => {
    expect(parseUnlockCode('1844 6744 0737 0955 1616')).toBeNull();
    expect(parseUnlockCode('1844 6744 0737 0955 161')).toBeNull();
    expect(parseUnlockCode('1844 6744 0737 0955 161x')).toBeNull();
    expect(parseUnlockCode('9'.repeat(1000))).toBeNull();
  });
});
