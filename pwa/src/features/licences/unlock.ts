import { requestCodeOf, USSD_SERVICE_CODE } from '@filamu/shared';
import { unlockFilmKey } from './sealed-keys.ts';
import { keepUnlock, phoneKey, sealedFilmOf, sealedOwner } from './store.ts';

/**
 * Unlocking a received film with no data (decision 0249), as the page offers it: the request code the person types
 * into Filamu's USSD service, and the unlock code it answers, typed back here, which opens the film's sealed key into
 * the key it plays with (kept as an unlock: film-key.ts plays by it until the licence is fetched online).
 */

export type UnlockRequest =
  | { kind: 'ready'; requestCode: string; serviceCode: string }
  /** This phone never fetched a sealed key for this film (it was offline since the film was added). */
  | { kind: 'no-sealed-key' };

/** The film's sealed key and this phone's device secret, if it holds both for this person and its current key. */
async function sealedFor(ownerId: string, movieId: string) {
  const [owner, film, { spki }] = await Promise.all([sealedOwner(ownerId), sealedFilmOf(ownerId, movieId), phoneKey()]);
  // Sealed for another key of this phone: the USSD service would license that one, which this phone no longer has.
  if (!owner || !film || owner.spki !== spki) return null;
  return { owner, film };
}

export async function unlockRequestOf(ownerId: string, movieId: string): Promise<UnlockRequest> {
  const sealed = await sealedFor(ownerId, movieId);
  if (!sealed) return { kind: 'no-sealed-key' };
  return {
    kind: 'ready',
    requestCode: requestCodeOf(sealed.film.shortNumber, sealed.owner.keyDigits),
    serviceCode: USSD_SERVICE_CODE,
  };
}

/** `malformed`: not 20 digits; `wrong-code`: 20 digits, but not this film's on this phone. */
export type UnlockOutcome = { ok: true } | { ok: false; reason: 'malformed' | 'wrong-code' | 'no-sealed-key' };

type Listener = (ownerId: string, movieId: string) => void;
const listeners = new Set<Listener>();

/** Told of every film unlocked in this page, so each place that offered the unlock can say it is done. */
export function onUnlocked(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function unlockWithCode(ownerId: string, movieId: string, typed: string): Promise<UnlockOutcome> {
  const sealed = await sealedFor(ownerId, movieId);
  if (!sealed) return { ok: false, reason: 'no-sealed-key' };
  const opened = await unlockFilmKey(sealed.owner.deviceSecret, sealed.film.sealedKey, typed, movieId);
  if (!opened.ok) return opened;
  await keepUnlock(ownerId, movieId, opened.key);
  for (const listener of listeners) listener(ownerId, movieId);
  return { ok: true };
}
