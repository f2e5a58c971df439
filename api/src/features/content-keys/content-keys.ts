import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { FILM_KEY_BYTES } from '@filamu/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { titleKeys } from '../../db/schema.ts';

/**
 * The key store (decision 0229): one AES-128 content key per title, made on first use and kept only sealed under the
 * master key. Everything that encrypts a film or licenses one asks here; nothing else reads `title_keys`.
 */
export interface ContentKeys {
  /**
   * The title's content key, made now if it has none; every replica and every caller gets the same one. It runs on
   * its own connection, never in a caller's transaction: a key made inside one that rolled back would be lost.
   */
  keyOf(movieId: string): Promise<Buffer>;
}

const SEAL_VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The 256-bit sealing key, derived from the configured (or generated) master secret. */
export function masterKeyFrom(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'filamu', 'content-master-key', 32));
}

/** The movie id is bound in as associated data: a sealed key moved to another title's row does not open. */
function associatedData(movieId: string): Buffer {
  return Buffer.from(`filamu-title-key:${movieId}`);
}

export function sealContentKey(masterKey: Buffer, movieId: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  cipher.setAAD(associatedData(movieId));
  const sealed = Buffer.concat([cipher.update(key), cipher.final()]);
  return [SEAL_VERSION, iv, sealed, cipher.getAuthTag()]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** Throws when the sealed key was not made with this master key for this movie. */
export function openContentKey(masterKey: Buffer, movieId: string, sealed: string): Buffer {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== SEAL_VERSION || !iv || !body || !tag) throw new Error('Not a sealed content key.');
  const decipher = createDecipheriv('aes-256-gcm', masterKey, Buffer.from(iv, 'base64url'), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(associatedData(movieId));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const key = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
  if (key.length !== FILM_KEY_BYTES) throw new Error('Not a content key.');
  return key;
}

/** Titles whose opened key a process keeps: 16 bytes each, so the whole of a large library fits. */
const KEPT_KEYS = 20_000;

export function sealedContentKeys(db: Db, masterKey: Buffer): ContentKeys {
  // A title's key never changes once made (and is committed before it is kept here), so a key read once serves every
  // later grant without the database.
  const opened = new Map<string, Buffer>();
  const keep = (movieId: string, key: Buffer) => {
    if (opened.size >= KEPT_KEYS) opened.delete(opened.keys().next().value!);
    opened.set(movieId, key);
    return key;
  };
  /** Keys being read or made now: a film's first downloads all at once read (or make) its key once. */
  const inFlight = new Map<string, Promise<Buffer>>();
  const readOrMake = async (movieId: string): Promise<Buffer> => {
    const [existing] = await db.select().from(titleKeys).where(eq(titleKeys.movieId, movieId));
    if (existing) return keep(movieId, openContentKey(masterKey, movieId, existing.sealedKey));
    // Two replicas at once each offer a key; the first insert wins and the other reads it back.
    const [made] = await db
      .insert(titleKeys)
      .values({ movieId, sealedKey: sealContentKey(masterKey, movieId, randomBytes(FILM_KEY_BYTES)) })
      .onConflictDoNothing()
      .returning();
    const [stored] = made ? [made] : await db.select().from(titleKeys).where(eq(titleKeys.movieId, movieId));
    return keep(movieId, openContentKey(masterKey, movieId, stored!.sealedKey));
  };
  return {
    keyOf(movieId) {
      const known = opened.get(movieId);
      if (known) return Promise.resolve(known);
      const pending = inFlight.get(movieId);
      if (pending) return pending;
      const reading = readOrMake(movieId).finally(() => inFlight.delete(movieId));
      inFlight.set(movieId, reading);
      return reading;
    },
  };
}
