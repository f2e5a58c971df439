import type { webcrypto } from 'node:crypto';
import type { Licence } from '@filamu/shared';

/** Tests: a phone's licence key pair, made as the app makes it: RSA-OAEP, SHA-256, private half non-extractable. */
export async function phoneKeys() {
  const pair = await crypto.subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    false,
    ['wrapKey', 'unwrapKey'],
  );
  const spki = Buffer.from(await crypto.subtle.exportKey('spki', pair.publicKey)).toString('base64url');
  return { pair, spki };
}

/** What the player does with a licence: unwrap the content key into a non-extractable AES-CTR key. */
export function unwrap(privateKey: webcrypto.CryptoKey, licence: Licence) {
  return crypto.subtle.unwrapKey(
    'raw',
    Buffer.from(licence.wrappedKey, 'base64url'),
    privateKey,
    { name: 'RSA-OAEP' },
    { name: 'AES-CTR' },
    false,
    ['decrypt'],
  );
}
