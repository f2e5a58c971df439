import 'fake-indexeddb/auto';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  decryptFilmRange,
  FILM_NONCE_BYTES,
  formatUnlockCode,
  keyDigitsOf,
  type Licence,
  parseRequestCode,
  type SealedKeysRequest,
  type SealedKeysResponse,
  toBase64url,
} from '@filamu/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readDeviceKey, wrapForDevice } from '../../../../api/src/features/licences/device-key.ts';
import {
  deviceSecretOf,
  sealedKeyRootsFrom,
  sealFilmKey,
  unlockCodeOf,
} from '../../../../api/src/features/sealed-keys/crypto.ts';
import { licenceStanding } from './film-key.ts';
import { refreshSealedKeys } from './sealed-fetch.ts';
import { keepLicence, markRevoked, phoneKey, sealedOwner } from './store.ts';
import { unlockRequestOf, unlockWithCode } from './unlock.ts';

/**
 * The phone's side of unlocking a film with no data (decision 0249), against the server's own sealing code
 * (api/src/features/sealed-keys/crypto.ts and the licence key's wrapping): the sealed keys fetched page by page and kept,
 * the request code shown, the unlock code typed, and the film playing by the key it opened until a licence takes over.
 */

const api = vi.hoisted(() => vi.fn());
vi.mock('../../lib/api.ts', () => ({ api }));

const roots = sealedKeyRootsFrom(randomBytes(32).toString('base64url'));
/** The catalogue the fake server seals: short number, id and key per film. */
const catalogue = new Map<number, { movieId: string; key: Buffer }>();
let requests: SealedKeysRequest[] = [];

/** `POST /users/sealed-keys` as the server answers it (issue.ts), pages of `page` films. */
function serveSealedKeys(page: number) {
  api.mockImplementation((_contract: unknown, { body }: { body: SealedKeysRequest }): SealedKeysResponse => {
    requests.push(body);
    const device = readDeviceKey(body.devicePublicKey);
    const secret = deviceSecretOf(roots, device.id);
    const rows = [...catalogue.entries()].filter(([n]) => n > (body.after ?? 0)).sort(([a], [b]) => a - b);
    const films = rows.slice(0, page).map(([shortNumber, { movieId, key }]) => ({
      movieId,
      shortNumber,
      sealedKey: sealFilmKey(secret, unlockCodeOf(roots, device.id, movieId), movieId, key).toString('base64url'),
    }));
    return {
      deviceKeyId: device.id,
      keyDigits: keyDigitsOf(device.id),
      wrappedDeviceSecret: wrapForDevice(device, secret).toString('base64url'),
      films,
      next: rows.length > page ? films.at(-1)!.shortNumber : null,
    };
  });
}

function addFilm(shortNumber: number) {
  const film = { movieId: randomUUID(), key: randomBytes(16) };
  catalogue.set(shortNumber, film);
  return film;
}

/** The code Filamu's USSD service answers for this phone and film. */
async function unlockCodeFor(movieId: string): Promise<string> {
  const keyId = readDeviceKey((await phoneKey()).spki).id;
  return formatUnlockCode(unlockCodeOf(roots, keyId, movieId));
}

/** A block of the film as the server encrypts it, and whether `key` decrypts it. */
async function decrypts(key: CryptoKey, raw: Buffer): Promise<boolean> {
  const plain = randomBytes(64);
  const nonce = new Uint8Array(randomBytes(FILM_NONCE_BYTES));
  const counter = new Uint8Array(16);
  counter.set(nonce);
  const encryptKey = await crypto.subtle.importKey('raw', new Uint8Array(raw), 'AES-CTR', false, ['encrypt']);
  const encrypted = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-CTR', counter, length: 64 }, encryptKey, plain),
  );
  const opened = await decryptFilmRange(key, nonce, 0, encrypted);
  return Buffer.from(opened).equals(plain);
}

beforeEach(() => {
  requests = [];
  api.mockReset();
});

describe('sealed keys kept on the phone', () => {
  it('fetches them page by page, keeps the device secret non-extractable, and later asks only for newer films', async () => {
    const owner = `user:${randomUUID()}`;
    catalogue.clear();
    for (let n = 1000; n < 1005; n += 1) addFilm(n);
    serveSealedKeys(2);
    await refreshSealedKeys(owner);
    expect(requests.map((r) => r.after)).toEqual([0, 1001, 1003]);
    const held = (await sealedOwner(owner))!;
    expect(held.highest).toBe(1004);
    expect(held.deviceSecret.extractable).toBe(false);
    expect(held.deviceSecret.algorithm.name).toBe('HKDF');

    const added = addFilm(1005);
    requests = [];
    await refreshSealedKeys(owner);
    expect(requests.map((r) => r.after)).toEqual([1004]);
    expect((await sealedOwner(owner))!.highest).toBe(1005);
    const request = await unlockRequestOf(owner, added.movieId);
    if (request.kind !== 'ready') throw new Error('no request code');
    expect(parseRequestCode(request.requestCode)).toEqual({
      ok: true,
      shortNumber: 1005,
      keyDigits: held.keyDigits,
    });
    expect(request.serviceCode).toBe('*384*3456#');
  });

  it('says when the phone holds no sealed key for a film', async () => {
    const owner = `user:${randomUUID()}`;
    expect(await unlockRequestOf(owner, randomUUID())).toEqual({ kind: 'no-sealed-key' });
    expect(await unlockWithCode(owner, randomUUID(), '0000 0000 0000 0000 0000')).toEqual({
      ok: false,
      reason: 'no-sealed-key',
    });
  });
});

describe('a film unlocked with the code from USSD', () => {
  async function phoneWithSealedFilm() {
    const owner = `user:${randomUUID()}`;
    catalogue.clear();
    const film = addFilm(2000 + Math.floor(Math.random() * 1000));
    serveSealedKeys(500);
    await refreshSealedKeys(owner);
    return { owner, film, code: await unlockCodeFor(film.movieId) };
  }

  it('refuses a wrong code and one that is not 20 digits, and plays by the right one', async () => {
    const { owner, film, code } = await phoneWithSealedFilm();
    const digits = code.replaceAll(' ', '');
    const wrong = `${digits.slice(0, 19)}${(Number(digits[19]) + 1) % 10}`;
    expect(await unlockWithCode(owner, film.movieId, wrong)).toEqual({ ok: false, reason: 'wrong-code' });
    expect(await unlockWithCode(owner, film.movieId, digits.slice(1))).toEqual({ ok: false, reason: 'malformed' });
    expect(await licenceStanding(owner, film.movieId)).toEqual({ playable: false, why: 'none' });

    expect(await unlockWithCode(owner, film.movieId, ` ${code} `)).toEqual({ ok: true });
    const standing = await licenceStanding(owner, film.movieId);
    if (!standing.playable) throw new Error('not playable');
    expect(standing.stored).toBeNull();
    const key = await standing.filmKey();
    expect(key.extractable).toBe(false);
    expect(await decrypts(key, film.key)).toBe(true);
    // Another person on this phone has not unlocked it.
    expect((await licenceStanding(`user:${randomUUID()}`, film.movieId)).playable).toBe(false);
  });

  it('gives way to a licence fetched later, and a revoked licence stops it again', async () => {
    const { owner, film, code } = await phoneWithSealedFilm();
    expect(await unlockWithCode(owner, film.movieId, code)).toEqual({ ok: true });
    const licence = await licenceFor(film.movieId, film.key);
    await keepLicence(owner, licence);
    const standing = await licenceStanding(owner, film.movieId);
    if (!standing.playable) throw new Error('not playable');
    expect(standing.stored?.licence.id).toBe(licence.id);
    expect(await decrypts(await standing.filmKey(), film.key)).toBe(true);

    await markRevoked(owner, [{ id: licence.id, reason: 'moved' }]);
    expect(await licenceStanding(owner, film.movieId)).toEqual({ playable: false, why: 'moved' });
    // Unlocked again by USSD (the server licensed this phone anew): the stale revoked licence no longer stops it.
    expect(await unlockWithCode(owner, film.movieId, code)).toEqual({ ok: true });
    expect((await licenceStanding(owner, film.movieId)).playable).toBe(true);
  });
});

/** A licence for this phone, wrapped as the server wraps it. */
async function licenceFor(movieId: string, rawKey: Buffer): Promise<Licence> {
  const device = readDeviceKey((await phoneKey()).spki);
  return {
    id: randomUUID(),
    movieId,
    deviceId: 'phone',
    deviceKeyId: device.id,
    wrappedKey: toBase64url(wrapForDevice(device, rawKey)),
    way: 'transfer',
    issuedAt: new Date().toISOString(),
    token: 'signed',
  };
}
