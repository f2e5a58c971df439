import { type Licence, toBase64url } from '@filamu/shared';
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
