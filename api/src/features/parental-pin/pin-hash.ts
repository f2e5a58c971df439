import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { PARENTAL_PIN_ITERATIONS, type ParentalPinVerifier } from '@filamu/shared';

const derive = promisify(pbkdf2);
const HASH_BYTES = 32;

/**
 * PBKDF2-SHA256, not the passwords' Argon2id: the device checks the PIN offline with WebCrypto, which has PBKDF2
 * and not Argon2, and a slower server-only hash would protect nothing while the device holds this one.
 */
export async function hashPin(pin: string): Promise<ParentalPinVerifier> {
  const salt = randomBytes(16);
  const hash = await derive(pin, salt, PARENTAL_PIN_ITERATIONS, HASH_BYTES, 'sha256');
  return { salt: salt.toString('base64url'), hash: hash.toString('base64url'), iterations: PARENTAL_PIN_ITERATIONS };
}

export async function pinMatches(verifier: ParentalPinVerifier, pin: string): Promise<boolean> {
  const expected = Buffer.from(verifier.hash, 'base64url');
  const actual = await derive(
    pin,
    Buffer.from(verifier.salt, 'base64url'),
    verifier.iterations,
    expected.length,
    'sha256',
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
