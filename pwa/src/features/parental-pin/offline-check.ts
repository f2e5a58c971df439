import {
  fromBase64url,
  PARENTAL_PIN_LOCK_MINUTES,
  PARENTAL_PIN_MAX_TRIES,
  type ParentalPinVerifier,
} from '@filamu/shared';
import { pinT } from './messages.ts';
import { clearTries, readTries, writeTries } from './store.ts';

/**
 * The PIN checked on the phone, without the network (decision 0170): PBKDF2-SHA256 of what was typed against the
 * verifier kept with the session. Wrong tries are counted in IndexedDB, 5 lock it for 15 minutes. Whoever can clear
 * the browser's storage can clear the count: this keeps a child out, not a determined adult.
 */
export type OfflineCheck =
  { ok: true } | { ok: false; locked: false; triesLeft: number } | { ok: false; locked: true; lockedUntil: number };

async function pinMatches(verifier: ParentalPinVerifier, pin: string): Promise<boolean> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, ['deriveBits']);
  const expected = fromBase64url(verifier.hash);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', salt: fromBase64url(verifier.salt), iterations: verifier.iterations, hash: 'SHA-256' },
    key,
    expected.length * 8,
  );
  const actual = new Uint8Array(bits);
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= actual[i]! ^ expected[i]!;
  return difference === 0;
}

/** When this phone's wrong tries lock the PIN for this person (ms), or null when they do not. */
export async function offlineLockedUntil(userId: string, now = Date.now()): Promise<number | null> {
  const row = await readTries(userId);
  return row && row.lockedUntil > now ? row.lockedUntil : null;
}

export async function checkPinOffline(
  userId: string,
  verifier: ParentalPinVerifier,
  pin: string,
  now = Date.now(),
): Promise<OfflineCheck> {
  const row = await readTries(userId);
  if (row && row.lockedUntil > now) return { ok: false, locked: true, lockedUntil: row.lockedUntil };
  if (await pinMatches(verifier, pin)) {
    await clearTries(userId);
    return { ok: true };
  }
  // An expired lock starts the count again.
  const failures = (row && row.lockedUntil === 0 ? row.failures : 0) + 1;
  const lockedUntil = failures >= PARENTAL_PIN_MAX_TRIES ? now + PARENTAL_PIN_LOCK_MINUTES * 60_000 : 0;
  await writeTries({ userId, failures, lockedUntil });
  return lockedUntil
    ? { ok: false, locked: true, lockedUntil }
    : { ok: false, locked: false, triesLeft: PARENTAL_PIN_MAX_TRIES - failures };
}

/** "Try again in 12 minutes" for a lock ending at `until` (ms). */
export function lockedWords(until: number, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((until - now) / 60_000));
  return pinT('parental-pin.locked', { minutes });
}
