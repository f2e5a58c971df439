import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLink, expiryFrom, type LinkFields, MAX_LINK_SECONDS, signedQuery } from './local-signing.ts';
import { newObjectKey } from './storage.ts';

const SECRET = randomBytes(32).toString('base64url');
const NOW = new Date('2026-11-22T09:00:00.000Z');
const MOVIE = newObjectKey('movies', 'video/mp4')!;
const OTHER_MOVIE = newObjectKey('movies', 'video/mp4')!;

const download: LinkFields = {
  method: 'GET',
  key: MOVIE,
  expires: expiryFrom(NOW, 3600),
  grant: 'b3f1c2d4-0000-4000-8000-000000000001',
  downloadName: 'Mukwano Gwange (2026).mp4',
  contentType: null,
  maxBytes: null,
  holder: 'c0ffee00-0000-4000-8000-000000000002.AbCdEfGh12345678',
};
const upload: LinkFields = {
  method: 'PUT',
  key: MOVIE,
  expires: expiryFrom(NOW, 900),
  grant: null,
  downloadName: null,
  contentType: 'video/mp4',
  maxBytes: 1_000_000,
};

type Request = { method: 'GET' | 'PUT'; key: string; query: URLSearchParams };

const requestFor = (fields: LinkFields): Request => ({
  method: fields.method,
  key: fields.key,
  query: new URLSearchParams(signedQuery(SECRET, fields)),
});

const accepts = (request: Request, now = NOW) => checkLink(SECRET, { ...request, now }).ok;

function withParam(request: Request, name: string, value: string | null): Request {
  const query = new URLSearchParams(request.query);
  if (value === null) query.delete(name);
  else query.set(name, value);
  return { ...request, query };
}

/** One single change to a valid link, as C16 lists them. */
function mutation(base: LinkFields): fc.Arbitrary<{ name: string; apply(request: Request): Request }> {
  const signature = requestFor(base).query.get('sig')!;
  const signatureBytes = Buffer.from(signature, 'base64url');
  return fc.oneof(
    fc.nat({ max: signatureBytes.length * 8 - 1 }).map((bit) => ({
      name: `flip signature bit ${bit}`,
      apply: (request: Request) => {
        const flipped = Buffer.from(signatureBytes);
        flipped[bit >> 3]! ^= 1 << (bit & 7);
        return withParam(request, 'sig', flipped.toString('base64url'));
      },
    })),
    fc
      .tuple(fc.nat({ max: signature.length - 1 }), fc.constantFrom(...'ABCabc012-_=.+/%'.split('')))
      .map(([index, char]) => ({
        name: `signature char ${index} → ${char}`,
        apply: (request: Request) => {
          fc.pre(signature[index] !== char);
          return withParam(request, 'sig', signature.slice(0, index) + char + signature.slice(index + 1));
        },
      })),
    fc.integer({ min: -100_000, max: 100_000 }).map((delta) => ({
      name: `expiry ${delta >= 0 ? '+' : ''}${delta}`,
      apply: (request: Request) => {
        fc.pre(delta !== 0);
        return withParam(request, 'exp', String(base.expires + delta));
      },
    })),
    fc.constantFrom('exp', 'grant', 'name', 'type', 'max', 'holder', 'sig').map((name) => ({
      name: `remove ${name}`,
      apply: (request: Request) => {
        fc.pre(request.query.has(name));
        return withParam(request, name, null);
      },
    })),
    fc
      .tuple(fc.constantFrom('grant', 'name', 'type', 'max', 'holder'), fc.string({ maxLength: 40 }))
      .map(([name, value]) => ({
        name: `${name} = ${JSON.stringify(value)}`,
        apply: (request: Request) => {
          fc.pre(request.query.get(name) !== value);
          return withParam(request, name, value);
        },
      })),
    fc.constantFrom('exp', 'sig', 'grant', 'holder').map((name) => ({
      name: `repeat ${name}`,
      apply: (request: Request) => {
        fc.pre(request.query.has(name));
        const query = new URLSearchParams(request.query);
        query.append(name, request.query.get(name)!);
        return { ...request, query };
      },
    })),
    fc.constant({
      name: 'other key',
      apply: (request: Request) => ({ ...request, key: OTHER_MOVIE }),
    }),
    fc.constant({
      name: 'other method',
      apply: (request: Request) => ({
        ...request,
        method: request.method === 'GET' ? ('PUT' as const) : ('GET' as const),
      }),
    }),
    fc.constant({
      name: 'expiry with a leading zero',
      apply: (request: Request) => withParam(request, 'exp', `0${base.expires}`),
    }),
  );
}

describe('signed links (security C16)', () => {
  it('accepts an untouched download link and an untouched upload link', () => {
    expect(accepts(requestFor(download))).toBe(true);
    expect(accepts(requestFor(upload))).toBe(true);
    expect(checkLink(SECRET, { ...requestFor(download), now: NOW })).toEqual({ ok: true, fields: download });
  });

  it('refuses every single mutation of a download link (10,000 runs)', () => {
    fc.assert(
      fc.property(mutation(download), (change) => {
        expect(accepts(change.apply(requestFor(download))), change.name).toBe(false);
      }),
      { numRuns: 10_000 },
    );
  });

  it('refuses every single mutation of an upload link', () => {
    fc.assert(
      fc.property(mutation(upload), (change) => {
        expect(accepts(change.apply(requestFor(upload))), change.name).toBe(false);
      }),
      { numRuns: 3_000 },
    );
  });

  it('refuses a link signed with another secret', () => {
    const query = new URLSearchParams(signedQuery(randomBytes(32).toString('base64url'), download));
    expect(accepts({ method: 'GET', key: MOVIE, query })).toBe(false);
  });

  it('expires at its expiry second exactly: valid a millisecond before, refused at it and 1 s after', () => {
    const request = requestFor(download);
    const expiry = download.expires * 1000;
    expect(accepts(request, new Date(expiry - 1))).toBe(true);
    expect(checkLink(SECRET, { ...request, now: new Date(expiry) })).toEqual({ ok: false, reason: 'expired' });
    expect(checkLink(SECRET, { ...request, now: new Date(expiry + 1000) })).toEqual({ ok: false, reason: 'expired' });
  });

  it('binds names with separators and non-ASCII text unambiguously', () => {
    const tricky = { ...download, grant: 'a","b', downloadName: 'Ekisa "Kyange"\n\u00e9\u{1F3AC}.mp4' };
    expect(accepts(requestFor(tricky))).toBe(true);
    const shifted = { ...download, grant: 'a"', downloadName: '"b' };
    const query = new URLSearchParams(signedQuery(SECRET, shifted));
    query.set('grant', tricky.grant);
    query.set('name', tricky.downloadName);
    expect(accepts({ method: 'GET', key: MOVIE, query })).toBe(false);
  });

  it('allows lifetimes of 1 s to 7 days only', () => {
    expect(expiryFrom(NOW, 1)).toBe(NOW.getTime() / 1000 + 1);
    expect(expiryFrom(NOW, MAX_LINK_SECONDS)).toBe(NOW.getTime() / 1000 + MAX_LINK_SECONDS);
    for (const bad of [0, -1, 1.5, MAX_LINK_SECONDS + 1, Number.NaN]) {
      expect(() => expiryFrom(NOW, bad)).toThrow(RangeError);
    }
  });
});
