import { fromBase64url, type Licence, type LicenceRevokedReason } from '@filamu/shared';
import { licenceOf, phoneKey, type StoredLicence } from './store.ts';

/**
 * Whether a film held on this phone may play, and the key it plays with (decision 0232): one answer for the Play
 * screen, which says why not in words, and for the service worker, which decrypts the film. The film's key is opened
 * from its licence by this phone's private key straight into a non-extractable AES-CTR key: it exists only inside
 * WebCrypto, never as bytes this app could read or write down.
 */

export type LicenceStanding =
  | { playable: true; stored: StoredLicence }
  /** `none`: no licence kept for this film on this phone; otherwise why the one kept no longer holds. */
  | { playable: false; why: 'none' | LicenceRevokedReason };

export async function licenceStanding(ownerId: string, movieId: string): Promise<LicenceStanding> {
  const stored = await licenceOf(ownerId, movieId);
  if (!stored) return { playable: false, why: 'none' };
  if (stored.revoked) return { playable: false, why: stored.revoked };
  return { playable: true, stored };
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
