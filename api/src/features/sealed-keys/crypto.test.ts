import { formatUnlockCode } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { masterKeyFrom } from '../content-keys/content-keys.ts';
import { deviceSecretOf, sealFilmKey, sealedKeyRootsFrom, unlockCodeOf } from './crypto.ts';

/** The known answers pwa/src/features/licences/sealed-keys.test.ts opens with WebCrypto: both sides must keep them. */
const VECTOR = {
  master: 'a content master secret of at least 32 characters',
  keyId: 'q1d8w0Jq9R0nL8bH3bqLkJ2r8Zt0Yk4pX6yFQ2VwP0s',
  movieId: '0b6f3c1e-3d4a-4c1b-9a77-2f1d5e6c8a90',
  filmKey: '00112233445566778899aabbccddeeff',
  deviceSecret: '0f9f61a1806e7f06f6e3921e268c320e48f94dc84130df6b3f5fe60642c00d86',
  unlockCode: '0805 5747 0382 8981 0955',
  sealed: 'd49bbb182e7e347f8973bfd57c4ec671fe68f3d55447223e',
};

describe('sealed film keys on the server', () => {
  const roots = sealedKeyRootsFrom(VECTOR.master);

  it('gives the known answers the phone opens', () => {
    const secret = deviceSecretOf(roots, VECTOR.keyId);
    const code = unlockCodeOf(roots, VECTOR.keyId, VECTOR.movieId);
    expect(secret.toString('hex')).toBe(VECTOR.deviceSecret);
    expect(formatUnlockCode(code)).toBe(VECTOR.unlockCode);
    const sealed = sealFilmKey(secret, code, VECTOR.movieId, Buffer.from(VECTOR.filmKey, 'hex'));
    expect(sealed.toString('hex')).toBe(VECTOR.sealed);
    expect(sealed.length).toBe(24);
  });

  it('derives secrets of their own: not the content sealing key, not each other, not from another master', () => {
    expect(roots.deviceRoot.equals(roots.unlock)).toBe(false);
    expect(roots.deviceRoot.equals(masterKeyFrom(VECTOR.master))).toBe(false);
    expect(roots.unlock.equals(masterKeyFrom(VECTOR.master))).toBe(false);
    const other = sealedKeyRootsFrom(`${VECTOR.master}!`);
    expect(deviceSecretOf(other, VECTOR.keyId).equals(deviceSecretOf(roots, VECTOR.keyId))).toBe(false);
  });

  it('gives each phone and each film its own code', () => {
    const code = (keyId: string, movieId: string) => unlockCodeOf(roots, keyId, movieId).toString('hex');
    expect(code(VECTOR.keyId, VECTOR.movieId)).not.toBe(code(`${VECTOR.keyId}x`, VECTOR.movieId));
    expect(code(VECTOR.keyId, VECTOR.movieId)).not.toBe(code(VECTOR.keyId, VECTOR.movieId.replace('90', '91')));
    expect(deviceSecretOf(roots, 'a').equals(deviceSecretOf(roots, 'b'))).toBe(false);
  });
});
