import { describe, expect, it } from 'vitest';
import { fromBase64url, toBase64url } from './base64url.ts';

describe('base64url', () => {
  it('writes the URL-safe alphabet without padding, and reads it back', () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xbf, 0x00, 0x01]);
    expect(toBase64url(bytes)).toBe('-_-_AAE');
    expect([...fromBase64url('-_-_AAE')]).toEqual([...bytes]);
    for (let length = 0; length < 40; length++) {
      const some = crypto.getRandomValues(new Uint8Array(length));
      const text = toBase64url(some.buffer);
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
      expect([...fromBase64url(text)]).toEqual([...some]);
    }
  });
});
