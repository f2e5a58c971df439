import { describe, expect, it } from 'vitest';
import { decryptFilmRange, filmCounterBlock } from './film-cipher.ts';

/**
 * The whole file at once from block 0's counter, as the server encrypts it (the server's own test checks Node's
 * cipher against this module on real media).
 */
async function encryptWhole(key: CryptoKey, nonce: Uint8Array, plain: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const counter = filmCounterBlock(nonce, 0);
  return new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-CTR', counter, length: 64 }, key, plain));
}

function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let at = 0; at < length; at += 65_536) crypto.getRandomValues(bytes.subarray(at, at + 65_536));
  return bytes;
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

describe('a film encrypted on the server decrypts on the phone, range by range', () => {
  const nonce = randomBytes(8);
  const plain = randomBytes(100_003);
  const webKey = crypto.subtle.importKey('raw', randomBytes(16), 'AES-CTR', false, ['encrypt', 'decrypt']);
  const encryptedOnce = webKey.then((key) => encryptWhole(key, nonce, plain));

  it('keeps the length and hides the bytes', async () => {
    const encrypted = await encryptedOnce;
    expect(encrypted.length).toBe(plain.length);
    let same = 0;
    for (let i = 0; i < plain.length; i++) if (plain[i] === encrypted[i]) same++;
    // Random bytes agree by chance one time in 256.
    expect(same).toBeLessThan(plain.length / 100);
  });

  it('gives back the plain bytes of any range, on a block or not, up to the last byte', async () => {
    const encrypted = await encryptedOnce;
    const ranges: [number, number][] = [
      [0, 100_003],
      [0, 1],
      [15, 17],
      [16, 48],
      [99_990, 100_003],
      [65_537, 70_001],
    ];
    for (let i = 0; i < 40; i++) {
      const start = Math.floor(Math.random() * plain.length);
      ranges.push([start, start + 1 + Math.floor(Math.random() * (plain.length - start))]);
    }
    for (const [start, end] of ranges) {
      const got = await decryptFilmRange(await webKey, nonce, start, encrypted.subarray(start, end));
      expect(same(got, plain.subarray(start, end)), `bytes ${start}-${end}`).toBe(true);
    }
  });

  it('does not decrypt with another title’s key or another file’s nonce', async () => {
    const encrypted = await encryptedOnce;
    const otherKey = await crypto.subtle.importKey('raw', randomBytes(16), 'AES-CTR', false, ['decrypt']);
    const wrongKey = await decryptFilmRange(otherKey, nonce, 0, encrypted.subarray(0, 64));
    const wrongNonce = await decryptFilmRange(await webKey, randomBytes(8), 0, encrypted.subarray(0, 64));
    expect(same(wrongKey, plain.subarray(0, 64))).toBe(false);
    expect(same(wrongNonce, plain.subarray(0, 64))).toBe(false);
  });

  it('carries the block index in the last eight bytes of the counter, big-endian', () => {
    const block = filmCounterBlock(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), 0x0102_0304_0506);
    expect([...block]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 1, 2, 3, 4, 5, 6]);
    expect(() => filmCounterBlock(new Uint8Array(7), 0)).toThrow(RangeError);
  });
});
