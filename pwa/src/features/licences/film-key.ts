import { fromBase64url, type Licence, type LicenceRevokedReason } from '@filamu/shared';
import { licenceOf, phoneKey, type StoredLicence, unlockOf } from './store.ts';

/**
 * Whether a film held on this phone may play, and the key it plays with (decision 0232): one answer for the Play
 * screen, which says why not in words, and for the service worker, which decrypts the film. The film's key is opened
 * from its licence by this phone's private key straight into a non-extractable AES-CTR key: it exists only inside
 * WebCrypto, never as bytes this app could read or write down.
 *
 * A film with no licence yet may have been unlocked with no data, by a code from Filamu's USSD service (decision
 * 0249): its key, opened the same way into a non-extractable AES-CTR key, plays it until the licence the server issued
 * then is fetched online — a licence, once held, always decides.
 */

export type LicenceStanding =
  /** `stored`: the licence it plays by; null when it plays by a USSD unlock, before its licence is fetched. */
  | { playable: true; stored: StoredLicence | null; filmKey: () => Promise<CryptoKey> }
  /** `none`: no licence kept for this film on this phone; otherwise why the one kept no longer holds. */
  | { playable: false; why: 'none' | LicenceRevokedReason };

export async function licenceStanding(ownerId: string, movieId: string): Promise<LicenceStanding> {
  const stored = await licenceOf(ownerId, movieId);
  if (stored?.revoked) return { playable: false, why: stored.revoked };
  if (stored) return { playable: true, stored, filmKey: () => filmKeyOf(stored.licence) };
  const unlock = await unlockOf(ownerId, movieId);
  if (unlock) return { playable: true, stored: null, filmKey: () => Promise.resolve(unlock.filmKey) };
  return { playable: false, why: 'none' };
}

/**
 * Unwrapped keys by licence id, for as long as the service worker lives: a seek asks again within the second, and
 * RSA is the slow part. A licence reissued under the same id (the phone's key was replaced) wraps the same title key.
 */
const opened = new Map<string, Promise<CryptoKey>>();

export function filmKeyOf(licence: Pick<Licence, 'id' | 'wrappedKey'>): Promise<CryptoKey> {
  let key = opened.get(licence.id);
  if (!key) {
    key = phoneKey().then(({ privateKey }) =>
      crypto.subtle.unwrapKey(
        'raw',
        fromBase64url(licence.wrappedKey),
        privateKey,
        { name: 'RSA-OAEP' },
        { name: 'AES-CTR', length: 128 },
        false,
        ['decrypt'],
      ),
    );
    opened.set(licence.id, key);
    // A failure is not kept: the next request tries again.
    key.catch(() => opened.delete(licence.id));
  }
  return key;
}
