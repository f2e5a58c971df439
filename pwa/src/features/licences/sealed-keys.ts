import { type FilmKey, fromBase64url, parseUnlockCode, SEALED_FILM_KEY_INFO } from '@filamu/shared';

/**
 * Opening a film with no data (decisions 0243, 0249). While online the phone keeps its device secret, wrapped for its
 * licence key, and a sealed key per film (`POST /api/users/sealed-keys`); offline, the person dials Filamu's USSD
 * service, types the film's request code, and types back the 20-digit unlock code it answers. Everything happens inside
 * WebCrypto: the device secret is unwrapped straight into a non-extractable HKDF key, the sealing key is derived from
 * it and the unlock code, and the film's key is unwrapped straight into a non-extractable AES-CTR key — the same kind
 * of key a licence opens (film-key.ts), so the player cannot tell them apart. No key is ever bytes the page can read.
 *
 * The server's side is api/src/features/sealed-keys/crypto.ts: sealing key = HKDF-SHA-256(ikm = device secret,
 * salt = the unlock code's 8 bytes, info = "filamu sealed film key v1|" + film id), 256 bits, for AES-KW.
 */

/** A film key wrapped with AES-KW: 16 bytes and the 8 of the integrity check. */
const SEALED_KEY_BYTES = 24;

const bytesOf = (value: Uint8Array | string): Uint8Array<ArrayBuffer> =>
  typeof value === 'string' ? fromBase64url(value) : new Uint8Array(value);

/** The device secret as a non-extractable HKDF key, unwrapped with the phone's private key (RSA-OAEP, SHA-256). */
export function openDeviceSecret(wrapped: Uint8Array | string, phonePrivateKey: FilmKey): Promise<FilmKey> {
  return crypto.subtle.unwrapKey(
    'raw',
    bytesOf(wrapped),
    phonePrivateKey,
    { name: 'RSA-OAEP' },
    { name: 'HKDF' },
    false,
    ['deriveKey'],
  );
}

export type UnlockedFilmKey = { ok: true; key: FilmKey } | { ok: false; reason: 'wrong-code' | 'malformed' };

/**
 * The film's key from its sealed key and the unlock code the person typed (20 digits; spaces allowed). A wrong code
 * fails AES-KW's integrity check at once: `wrong-code`. `malformed`: not 20 digits under 2^64, or not a sealed key.
 */
export async function unlockFilmKey(
  deviceSecret: FilmKey,
  sealed: Uint8Array | string,
  unlockCode: string,
  movieId: string,
): Promise<UnlockedFilmKey> {
  const salt = parseUnlockCode(unlockCode);
  const wrapped = bytesOf(sealed);
  if (!salt || wrapped.length !== SEALED_KEY_BYTES) return { ok: false, reason: 'malformed' };
  const sealing = await crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt, info: new TextEncoder().encode(`${SEALED_FILM_KEY_INFO}${movieId}`) },
    deviceSecret,
    { name: 'AES-KW', length: 256 },
    false,
    ['unwrapKey'],
  );
  try {
    const key = await crypto.subtle.unwrapKey(
      'raw',
      wrapped,
      sealing,
      { name: 'AES-KW' },
      { name: 'AES-CTR', length: 128 },
      false,
      ['decrypt'],
    );
    return { ok: true, key };
  } catch {
    return { ok: false, reason: 'wrong-code' };
  }
}
