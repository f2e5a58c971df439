import { createCipheriv, createHmac, hkdfSync } from 'node:crypto';
import { FILM_KEY_BYTES, SEALED_FILM_KEY_INFO, UNLOCK_CODE_BYTES } from '@filamu/shared';

/**
 * Sealed film keys (decisions 0243, 0249): what lets a typed code unlock a film whose key a phone already holds.
 *
 * - The two server secrets are derived from the content master secret (decision 0229) with labels of their own, so
 *   nothing new has to be configured or can be forgotten, and neither is stored: `HKDF-SHA-256(ikm = master secret,
 *   salt = "filamu", info = label, 32 bytes)`.
 * - A phone key's device secret `D = HMAC-SHA-256(device root, keyId)`, 32 bytes, with `keyId` the phone key's SHA-256
 *   in base64url (UTF-8), as licences name it. No per-phone secret is kept: the same key id always gives the same D.
 * - A film's unlock code on that phone `u = HMAC-SHA-256(unlock secret, keyId + "|" + movieId)[0..8)`: 64 bits.
 * - The sealed key: the film's 16-byte key wrapped with AES-256-KW (RFC 3394) under
 *   `HKDF-SHA-256(ikm = D, salt = u, info = "filamu sealed film key v1|" + movieId, 32 bytes)`: 24 bytes.
 *
 * The phone opens D into a non-extractable HKDF key and, given u, unwraps the film's key straight into a
 * non-extractable AES-CTR key (pwa/src/features/licences/sealed-keys.ts); AES-KW's integrity check says whether u was
 * right.
 */

export interface SealedKeyRoots {
  /** Makes each phone key's device secret. */
  deviceRoot: Buffer;
  /** Makes each phone and film's unlock code. */
  unlock: Buffer;
}

const DEVICE_ROOT_LABEL = 'filamu sealed keys: device secret root v1';
const UNLOCK_LABEL = 'filamu sealed keys: unlock code v1';
/** RFC 3394's default initial value. */
const KW_IV = Buffer.from('a6a6a6a6a6a6a6a6', 'hex');

const derive = (secret: string, label: string) => Buffer.from(hkdfSync('sha256', secret, 'filamu', label, 32));

/** Both secrets, from the content master secret (CONTENT_MASTER_KEY, or the one generated and kept in app_secrets). */
export function sealedKeyRootsFrom(contentMasterSecret: string): SealedKeyRoots {
  return {
    deviceRoot: derive(contentMasterSecret, DEVICE_ROOT_LABEL),
    unlock: derive(contentMasterSecret, UNLOCK_LABEL),
  };
}

export function deviceSecretOf(roots: SealedKeyRoots, keyId: string): Buffer {
  return createHmac('sha256', roots.deviceRoot).update(keyId, 'utf8').digest();
}

export function unlockCodeOf(roots: SealedKeyRoots, keyId: string, movieId: string): Buffer {
  return createHmac('sha256', roots.unlock)
    .update(`${keyId}|${movieId}`, 'utf8')
    .digest()
    .subarray(0, UNLOCK_CODE_BYTES);
}

/** The AES-256-KW key that seals one film's key for one phone: HKDF(D, salt = u, info = label + movie id). */
function sealingKey(deviceSecret: Buffer, unlockCode: Buffer, movieId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', deviceSecret, unlockCode, `${SEALED_FILM_KEY_INFO}${movieId}`, 32));
}

export function sealFilmKey(deviceSecret: Buffer, unlockCode: Buffer, movieId: string, filmKey: Buffer): Buffer {
  if (filmKey.length !== FILM_KEY_BYTES) throw new RangeError('A film key is 16 bytes.');
  const cipher = createCipheriv('id-aes256-wrap', sealingKey(deviceSecret, unlockCode, movieId), KW_IV);
  return Buffer.concat([cipher.update(filmKey), cipher.final()]);
}
