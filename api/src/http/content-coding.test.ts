import { describe, expect, it } from 'vitest';
import { negotiateCoding, varyOnAcceptEncoding } from './content-coding.ts';

describe('negotiateCoding', () => {
  it('prefers br, then gzip, when the client takes both equally (what browsers send)', () => {
    expect(negotiateCoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateCoding('gzip, br')).toBe('br');
    expect(negotiateCoding('gzip, deflate')).toBe('gzip');
    expect(negotiateCoding('deflate, zstd')).toBe('identity');
  });

  it('sends identity without a header, and with an empty one', () => {
    expect(negotiateCoding(undefined)).toBe('identity');
    expect(negotiateCoding('')).toBe('identity');
    expect(negotiateCoding(' , ')).toBe('identity');
  });

  it('follows q-values, and never sends a coding at q=0', () => {
    expect(negotiateCoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(negotiateCoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateCoding('br;q=0.0, gzip;q=0.000')).toBe('identity');
    expect(negotiateCoding('BR;Q=1.000, GZIP')).toBe('br');
    expect(negotiateCoding('br ; q = 0.9 , gzip ; q=0.1')).toBe('br');
  });

  it('only offers codings that are available', () => {
    expect(negotiateCoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiateCoding('br', ['gzip'])).toBe('identity');
    expect(negotiateCoding('br, gzip', [])).toBe('identity');
  });

  it('reads * as every coding not named, identity included', () => {
    expect(negotiateCoding('*')).toBe('br');
    expect(negotiateCoding('br;q=0, *')).toBe('gzip');
    expect(negotiateCoding('gzip;q=0.5, *;q=0.1')).toBe('gzip');
    expect(negotiateCoding('*;q=0')).toBe('identity'); // nothing acceptable: the header is disregarded
    expect(negotiateCoding('*;q=0, identity')).toBe('identity');
  });

  it('ranks identity below a named coding unless the client weighs identity higher', () => {
    expect(negotiateCoding('br;q=0.5')).toBe('br');
    expect(negotiateCoding('identity, gzip;q=0.5')).toBe('identity');
    expect(negotiateCoding('identity;q=0.5, gzip')).toBe('gzip');
    expect(negotiateCoding('identity, br')).toBe('br');
  });

  it('honours identity;q=0 by sending a coding when there is one', () => {
    expect(negotiateCoding('identity;q=0, gzip;q=0.1')).toBe('gzip');
    expect(negotiateCoding('identity;q=0, br', ['gzip'])).toBe('identity'); // nothing else: disregarded
  });

  it('treats x-gzip as gzip and skips malformed weights', () => {
    expect(negotiateCoding('x-gzip')).toBe('gzip');
    expect(negotiateCoding('br;q=2, gzip')).toBe('gzip');
    expect(negotiateCoding('br;q=abc')).toBe('identity');
    expect(negotiateCoding('br;q=0.1234, gzip;q=0.5')).toBe('gzip');
    expect(negotiateCoding('br;q=, gzip')).toBe('gzip');
  });

  it('keeps the first weight of a coding named twice', () => {
    expect(negotiateCoding('br;q=0, br, gzip')).toBe('gzip');
  });
});

describe('varyOnAcceptEncoding', () => {
  const vary = (initial: string | null) => {
    const headers = new Headers(initial === null ? {} : { Vary: initial });
    varyOnAcceptEncoding(headers);
    return headers.get('Vary');
  };

  it('adds Accept-Encoding once, keeping what was there', () => {
    expect(vary(null)).toBe('Accept-Encoding');
    expect(vary('Origin')).toBe('Origin, Accept-Encoding');
    expect(vary('origin, accept-encoding')).toBe('origin, accept-encoding');
    expect(vary('*')).toBe('*');
  });
});
