import { type Licence, type LicenceRevokedReason, toBase64url } from '@filamu/shared';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { DATABASES } from '../../lib/storage-names.ts';

/**
 * The phone's side of licences (decision 0230): its licence key pair, and the licence of each film it holds, in
 * IndexedDB where the page, the download worker and the service worker all reach them. The private key is made
 * non-extractable: it opens a film's key inside WebCrypto and can never be read out, not even by this app.
 */

export interface PhoneKey {
  name: typeof PHONE_KEY;
  privateKey: CryptoKey;
  /** The public half as SPKI, base64url: what the server wraps content keys for. */
  spki: string;
}

export interface StoredLicence {
  /** `${ownerId}:${movieId}`, the same key as the film's download record. */
  key: string;
  ownerId: string;
  movieId: string;
  licence: Licence;
  /** Set by the online check when the licence no longer holds: the film stops playing (decision 0230). */
  revoked?: LicenceRevokedReason;
}

interface LicencesDb extends DBSchema {
  phoneKeys: { key: string; value: PhoneKey };
  licences: { key: string; value: StoredLicence; indexes: { 'by-owner': string } };
}

const PHONE_KEY = 'licence';
const RSA_OAEP = {
  name: 'RSA-OAEP',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
} as const;

let dbPromise: Promise<IDBPDatabase<LicencesDb>> | null = null;

function openLicencesDb(): Promise<IDBPDatabase<LicencesDb>> {
  dbPromise ??= openDB<LicencesDb>(DATABASES.licences, 1, {
    upgrade(db) {
      db.createObjectStore('phoneKeys', { keyPath: 'name' });
      db.createObjectStore('licences', { keyPath: 'key' }).createIndex('by-owner', 'ownerId');
    },
  });
  return dbPromise;
}

/**
 * This phone's licence key, made the first time it is needed. Two threads making one at once keep the first stored:
 * every licence is wrapped for the key that stays.
 */
export async function phoneKey(): Promise<PhoneKey> {
  const db = await openLicencesDb();
  const stored = await db.get('phoneKeys', PHONE_KEY);
  if (stored) return stored;
  const pair = await crypto.subtle.generateKey(RSA_OAEP, false, ['wrapKey', 'unwrapKey']);
  const made: PhoneKey = {
    name: PHONE_KEY,
    privateKey: pair.privateKey,
    spki: toBase64url(await crypto.subtle.exportKey('spki', pair.publicKey)),
  };
  const tx = db.transaction('phoneKeys', 'readwrite');
  const first = await tx.store.get(PHONE_KEY);
  if (!first) await tx.store.put(made);
  await tx.done;
  return first ?? made;
}

/** Keeps the film's licence for its person; a newer one replaces the one held (moved back, or reissued). */
export async function keepLicence(ownerId: string, licence: Licence): Promise<void> {
  const db = await openLicencesDb();
  await db.put('licences', {
    key: `${ownerId}:${licence.movieId}`,
    ownerId,
    movieId: licence.movieId,
    licence,
  });
}

export async function licenceOf(ownerId: string, movieId: string): Promise<StoredLicence | undefined> {
  return (await openLicencesDb()).get('licences', `${ownerId}:${movieId}`);
}

/**
 * The online check's answer kept with each licence (decision 0230): a revoked licence no longer plays, and the Play
 * screen says why. A licence reissued later (moved back to this phone) replaces the record and plays again.
 */
export async function markRevoked(
  ownerId: string,
  revoked: readonly { id: string; reason: LicenceRevokedReason }[],
): Promise<void> {
  if (revoked.length === 0) return;
  const reasons = new Map(revoked.map((r) => [r.id, r.reason]));
  const db = await openLicencesDb();
  const tx = db.transaction('licences', 'readwrite');
  for (const stored of await tx.store.index('by-owner').getAll(ownerId)) {
    const reason = reasons.get(stored.licence.id);
    if (reason && stored.revoked !== reason) await tx.store.put({ ...stored, revoked: reason });
  }
  await tx.done;
}

/** Every licence this phone holds for a person (the online check asks about them all). */
export async function licencesOf(ownerId: string): Promise<StoredLicence[]> {
  return (await openLicencesDb()).getAllFromIndex('licences', 'by-owner', ownerId);
}

/** Everyone who holds a licence on this phone: the online check asks for each of them, signed in or not. */
export async function licenceOwners(): Promise<string[]> {
  const owners: string[] = [];
  const tx = (await openLicencesDb()).transaction('licences');
  for (let cursor = await tx.store.index('by-owner').openKeyCursor(null, 'nextunique'); cursor;) {
    owners.push(cursor.key);
    cursor = await cursor.continue();
  }
  await tx.done;
  return owners;
}

// ── Sealed keys and unlocks: a film opened with no data, by a code from Filamu's USSD service (decision 0249) ────
//
// A database of its own, not a version 2 of the licences one: a service worker still running the previous build holds
// that one open and would block its upgrade.

/** A person's device secret on this phone, and how far their sealed keys go. */
export interface SealedOwner {
  ownerId: string;
  /** The phone key (SPKI) the secret was wrapped for: another key means fetching everything again. */
  spki: string;
  deviceKeyId: string;
  /** The three digits of the phone's key a request code carries. */
  keyDigits: string;
  /** The device secret, opened into a non-extractable HKDF key: no page or worker can read it. */
  deviceSecret: CryptoKey;
  /** The highest short number held: the next fetch asks only for the films after it. */
  highest: number;
  /** When the sealed keys were last fetched (ms), and last fetched whole, from the first film. */
  fetchedAt: number;
  wholeAt: number;
}

export interface SealedFilm {
  /** `${ownerId}:${movieId}`. */
  key: string;
  ownerId: string;
  movieId: string;
  shortNumber: number;
  /** The film's key, AES-KW-wrapped, base64url. */
  sealedKey: string;
}

/** A film unlocked by a USSD code, for a phone with no licence for it yet: its key, non-extractable. */
export interface Unlock {
  key: string;
  ownerId: string;
  movieId: string;
  filmKey: CryptoKey;
  unlockedAt: number;
}

interface SealedKeysDb extends DBSchema {
  owners: { key: string; value: SealedOwner };
  films: { key: string; value: SealedFilm; indexes: { 'by-owner': string } };
  unlocks: { key: string; value: Unlock };
}

let sealedDbPromise: Promise<IDBPDatabase<SealedKeysDb>> | null = null;

function openSealedKeysDb(): Promise<IDBPDatabase<SealedKeysDb>> {
  sealedDbPromise ??= openDB<SealedKeysDb>(DATABASES.sealedKeys, 1, {
    upgrade(db) {
      db.createObjectStore('owners', { keyPath: 'ownerId' });
      db.createObjectStore('films', { keyPath: 'key' }).createIndex('by-owner', 'ownerId');
      db.createObjectStore('unlocks', { keyPath: 'key' });
    },
  });
  return sealedDbPromise;
}

export async function sealedOwner(ownerId: string): Promise<SealedOwner | undefined> {
  return (await openSealedKeysDb()).get('owners', ownerId);
}

/**
 * Keeps a page of sealed keys with the owner's record, in one transaction: `highest` never claims a film not kept.
 * `fresh`: the first page of a fetch from the start (another phone key): the films held before are dropped.
 */
export async function keepSealedKeys(
  owner: SealedOwner,
  films: readonly Omit<SealedFilm, 'key' | 'ownerId'>[],
  fresh = false,
): Promise<void> {
  const db = await openSealedKeysDb();
  const tx = db.transaction(['owners', 'films'], 'readwrite');
  const store = tx.objectStore('films');
  if (fresh) {
    for (const key of await store.index('by-owner').getAllKeys(owner.ownerId)) await store.delete(key);
  }
  let highest = owner.highest;
  for (const film of films) {
    await store.put({ ...film, key: `${owner.ownerId}:${film.movieId}`, ownerId: owner.ownerId });
    highest = Math.max(highest, film.shortNumber);
  }
  await tx.objectStore('owners').put({ ...owner, highest });
  await tx.done;
}

export async function sealedFilmOf(ownerId: string, movieId: string): Promise<SealedFilm | undefined> {
  return (await openSealedKeysDb()).get('films', `${ownerId}:${movieId}`);
}

/**
 * Keeps the key a USSD code opened. The server issued this phone a licence when it gave the code, so a revoked
 * licence held from before (the film moved away, then came back by a friend) is stale: it is dropped, or it would
 * keep the film from playing.
 */
export async function keepUnlock(ownerId: string, movieId: string, filmKey: CryptoKey): Promise<void> {
  const key = `${ownerId}:${movieId}`;
  await (await openSealedKeysDb()).put('unlocks', { key, ownerId, movieId, filmKey, unlockedAt: Date.now() });
  const licences = await openLicencesDb();
  const held = await licences.get('licences', key);
  if (held?.revoked) await licences.delete('licences', key);
}

export async function unlockOf(ownerId: string, movieId: string): Promise<Unlock | undefined> {
  return (await openSealedKeysDb()).get('unlocks', `${ownerId}:${movieId}`);
}
