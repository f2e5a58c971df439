import { decryptFilmRange, FILM_NONCE_BYTES, formatUnlockCode, parseUnlockCode } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { openDeviceSecret, unlockFilmKey } from './sealed-keys.ts';

/**
 * Known answers from the server's sealing (api/src/features/sealed-keys/crypto.ts, whose own test checks it gives the
 * same): the device secret of one key id, the unlock code of one film on it, and that film's key sealed. The whole path
 * against a running API is api/src/features/ussd/ussd.test.ts.
 */
const VECTOR = {
  deviceSecret: '0f9f61a1806e7f06f6e3921e268c320e48f94dc84130df6b3f5fe60642c00d86',
  movieId: '0b6f3c1e-3d4a-4c1b-9a77-2f1d5e6c8a90',
  unlockCode: '0805 5747 0382 8981 0955',
  filmKey: '00112233445566778899aabbccddeeff',
  sealed: 'd49bbb182e7e347f8973bfd57c4ec671fe68f3d55447223e',
};

const hex = (text: string) => Uint8Array.from(text.match(/../g)!.map((b) => parseInt(b, 16)));

/** The phone: its RSA-OAEP key pair, and the device secret wrapped for it as the server wraps it. */
async function phoneWithSecret() {
  const pair = await crypto.subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    false,
    ['wrapKey', 'unwrapKey', 'encrypt'],
  );
  const wrapped = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, pair.publicKey, hex(VECTOR.deviceSecret)),
  );
  return { pair, wrapped };
}

/** A block of film as the server encrypts it (AES-128-CTR under the film key), and the plain block. */
async function filmBlock() {
  const plain = crypto.getRandomValues(new Uint8Array(64));
  const nonce = crypto.getRandomValues(new Uint8Array(FILM_NONCE_BYTES));
  const raw = await crypto.subtle.importKey('raw', hex(VECTOR.filmKey), 'AES-CTR', false, ['encrypt', 'decrypt']);
  const counter = new Uint8Array(16);
  counter.set(nonce);
  const encrypted = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CTR', counter, length: 64 }, raw, plain));
  return { plain, nonce, encrypted };
}

describe('sealed film keys on the phone', () => {
  it('opens the device secret into a non-extractable HKDF key', async () => {
    const { pair, wrapped } = await phoneWithSecret();
    const secret = await openDeviceSecret(wrapped, pair.privateKey);
    expect(secret.algorithm.name).toBe('HKDF');
    expect(secret.extractable).toBe(false);
    expect(secret.usages).toEqual(['deriveKey']);
  });

  it('opens the film key with the right code: a non-extractable AES-CTR key that decrypts the film', async () => {
    const { pair, wrapped } = await phoneWithSecret();
    const secret = await openDeviceSecret(wrapped, pair.privateKey);
    const opened = await unlockFilmKey(secret, hex(VECTOR.sealed), VECTOR.unlockCode, VECTOR.movieId);
    if (!opened.ok) throw new Error(`not opened: ${opened.reason}`);
    expect(opened.key.extractable).toBe(false);
    expect(opened.key.algorithm).toEqual({ name: 'AES-CTR', length: 128 });
    expect(opened.key.usages).toEqual(['decrypt']);
    const { plain, nonce, encrypted } = await filmBlock();
    expect([...(await decryptFilmRange(opened.key, nonce, 0, encrypted))]).toEqual([...plain]);
    // Typed without spaces, too.
    const typed = VECTOR.unlockCode.replaceAll(' ', '');
    expect((await unlockFilmKey(secret, hex(VECTOR.sealed), typed, VECTOR.movieId)).ok).toBe(true);
  });

  it('says wrong-code for any one digit changed, for another film, or for another phone', async () => {
    const { pair, wrapped } = await phoneWithSecret();
    const secret = await openDeviceSecret(wrapped, pair.privateKey);
    const digits = VECTOR.unlockCode.replaceAll(' ', '');
    for (const i of [0, 7, 13, 19]) {
      const changed = digits.slice(0, i) + ((Number(digits[i]) + 1) % 10) + digits.slice(i + 1);
      expect(await unlockFilmKey(secret, hex(VECTOR.sealed), changed, VECTOR.movieId)).toEqual({
        ok: false,
        reason: 'wrong-code',
      });
    }
    const otherFilm = '0b6f3c1e-3d4a-4c1b-9a77-2f1d5e6c8a91';
    expect(await unlockFilmKey(secret, hex(VECTOR.sealed), VECTOR.unlockCode, otherFilm)).toMatchObject({ ok: false });
    const otherPhone = await crypto.subtle.importKey('raw', new Uint8Array(32), 'HKDF', false, ['deriveKey']);
    expect(await unlockFilmKey(otherPhone, hex(VECTOR.sealed), VECTOR.unlockCode, VECTOR.movieId)).toEqual({
      ok: false,
      reason: 'wrong-code',
    });
  });

  it('says malformed for what is not an unlock code or a sealed key', async () => {
    const secret = await crypto.subtle.importKey('raw', hex(VECTOR.deviceSecret), 'HKDF', false, ['deriveKey']);
    for (const code of ['', '0805 5747 0382 8981', '9999 9999 9999 9999 9999', '0805-5747-0382-8981-095x']) {
      expect(await unlockFilmKey(secret, hex(VECTOR.sealed), code, VECTOR.movieId)).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
    expect(await unlockFilmKey(secret, new Uint8Array(16), VECTOR.unlockCode, VECTOR.movieId)).toEqual({
      ok: false,
      reason: 'malformed',
    });
    expect(formatUnlockCode(parseUnlockCode(VECTOR.unlockCode)!)).toBe(VECTOR.unlockCode);
  });
});
