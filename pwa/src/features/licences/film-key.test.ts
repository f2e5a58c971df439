import 'fake-indexeddb/auto';
import { randomBytes, randomUUID } from 'node:crypto';
import { fromBase64url, type Licence, toBase64url } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { filmKeyOf, licenceStanding } from './film-key.ts';
import { keepLicence, licencesOf, markRevoked, phoneKey } from './store.ts';

/** Whether a film held here may play, and its key (decision 0232), on fake IndexedDB and Node's WebCrypto. */
async function licenceFor(movieId: string, rawKey: Uint8Array, id = randomUUID()): Promise<Licence> {
  const publicKey = await crypto.subtle.importKey(
    'spki',
    fromBase64url((await phoneKey()).spki),
    { name: 'RSA-OAEP', hash: 'SHA-256' },
    false,
    ['encrypt'],
  );
  const wrapped = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, rawKey as Uint8Array<ArrayBuffer>);
  return {
    id,
    movieId,
    deviceId: 'phone',
    deviceKeyId: 'key',
    wrappedKey: toBase64url(wrapped),
    way: 'download',
    issuedAt: new Date().toISOString(),
    token: 'signed',
  };
}

describe('a licence’s standing on this phone', () => {
  it('plays while kept and not revoked, stops when revoked, and plays again when reissued', async () => {
    const ownerId = `user:${randomUUID()}`;
    const movieId = randomUUID();
    expect(await licenceStanding(ownerId, movieId)).toEqual({ playable: false, why: 'none' });

    const licence = await licenceFor(movieId, randomBytes(16));
    await keepLicence(ownerId, licence);
    expect(await licenceStanding(ownerId, movieId)).toMatchObject({ playable: true, stored: { licence } });

    await markRevoked(ownerId, [{ id: licence.id, reason: 'moved' }]);
    expect(await licenceStanding(ownerId, movieId)).toEqual({ playable: false, why: 'moved' });
    expect(await licencesOf(ownerId)).toMatchObject([{ movieId, revoked: 'moved' }]);

    await keepLicence(ownerId, await licenceFor(movieId, randomBytes(16)));
    expect((await licenceStanding(ownerId, movieId)).playable).toBe(true);
    // Another person's licence for the same film is not this person's.
    expect(await licenceStanding(`user:${randomUUID()}`, movieId)).toEqual({ playable: false, why: 'none' });
  });
});

describe('the film key a licence opens', () => {
  it('is the title key, inside WebCrypto only: non-extractable, for decrypting', async () => {
    const rawKey = randomBytes(16);
    const licence = await licenceFor(randomUUID(), rawKey);
    const key = await filmKeyOf(licence);
    expect(key.extractable).toBe(false);
    expect(key.usages).toEqual(['decrypt']);
    expect(key.algorithm).toMatchObject({ name: 'AES-CTR', length: 128 });
    // It decrypts what the raw key encrypts.
    const counter = new Uint8Array(16);
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-CTR', counter, length: 64 },
      await crypto.subtle.importKey('raw', rawKey, 'AES-CTR', false, ['encrypt']),
      new TextEncoder().encode('Kasuku'),
    );
    const opened = await crypto.subtle.decrypt({ name: 'AES-CTR', counter, length: 64 }, key, sealed);
    expect(new TextDecoder().decode(opened)).toBe('Kasuku');
  });

  it('is opened once per licence, and a licence that does not open is tried again next time', async () => {
    const licence = await licenceFor(randomUUID(), randomBytes(16));
    expect(filmKeyOf(licence)).toBe(filmKeyOf(licence));
    const broken = { id: randomUUID(), wrappedKey: toBase64url(randomBytes(256)) };
    const first = filmKeyOf(broken);
    await expect(first).rejects.toThrow();
    expect(filmKeyOf({ ...broken, wrappedKey: licence.wrappedKey })).not.toBe(first);
  });
});
