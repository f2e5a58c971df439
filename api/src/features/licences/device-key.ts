import { constants, createHash, createPublicKey, type KeyObject, publicEncrypt } from 'node:crypto';
import { AppError } from '../../http/errors.ts';

/**
 * A phone's licence key (decision 0230): RSA-OAEP with SHA-256, 2048 to 4096 bits, made by WebCrypto on the phone
 * with a non-extractable private key. The server only ever holds the public half, and only while wrapping.
 */
export interface DeviceKey {
  key: KeyObject;
  /** SHA-256 of the key's SPKI bytes, base64url: which key of which phone a licence was wrapped for. */
  id: string;
}

const INVALID_KEY = 'The phone’s key is not valid. Reopen the app and try again.';

/**
 * Keys read lately, by their text: a phone sends the same key with every link it asks for, and parsing and checking
 * an RSA key costs more than the rest of the licence. Bounded: the oldest is forgotten first.
 */
const KEPT_KEYS = 2_000;
const readKeys = new Map<string, DeviceKey>();

/** Reads a key the contract already bounded (length, alphabet); refuses anything but a sound RSA key. */
export function readDeviceKey(spkiBase64url: string): DeviceKey {
  const known = readKeys.get(spkiBase64url);
  if (known) return known;
  const read = parseDeviceKey(spkiBase64url);
  if (readKeys.size >= KEPT_KEYS) readKeys.delete(readKeys.keys().next().value!);
  readKeys.set(spkiBase64url, read);
  return read;
}

function parseDeviceKey(spkiBase64url: string): DeviceKey {
  const der = Buffer.from(spkiBase64url, 'base64url');
  let key: KeyObject;
  try {
    key = createPublicKey({ key: der, format: 'der', type: 'spki' });
  } catch {
    throw new AppError('bad_request', INVALID_KEY);
  }
  const details = key.asymmetricKeyDetails;
  const bits = details?.modulusLength ?? 0;
  // Bounded both ways: under 2048 bits is weak, over 4096 costs the server time for nothing.
  if (key.asymmetricKeyType !== 'rsa' || bits < 2048 || bits > 4096 || details?.publicExponent !== 65537n) {
    throw new AppError('bad_request', INVALID_KEY);
  }
  return { key, id: createHash('sha256').update(der).digest('base64url') };
}

/** The content key as only this phone can open it: WebCrypto's `unwrapKey` with RSA-OAEP, SHA-256. */
export function wrapForDevice(device: DeviceKey, contentKey: Buffer): Buffer {
  return publicEncrypt({ key: device.key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, contentKey);
}
