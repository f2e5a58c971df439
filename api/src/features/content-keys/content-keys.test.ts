import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { movies, titleKeys } from '../../db/schema.ts';
import { freshDatabase, testDatabases } from '../../../test/harness.ts';
import { type ContentKeys, masterKeyFrom, openContentKey, sealContentKey, sealedContentKeys } from './content-keys.ts';

async function insertMovie(database: Database): Promise<string> {
  const [row] = await database.db
    .insert(movies)
    .values({
      title: `Keyed ${randomBytes(3).toString('hex')}`,
      description: 'A film with a content key',
      category: 'Kinayuganda',
      s3Key: `movies/${randomBytes(6).toString('hex')}.mp4`,
      sizeBytes: 1000,
      contentType: 'video/mp4',
    })
    .returning({ id: movies.id });
  return row!.id;
}

describe.each(testDatabases)('content keys on %s', (kind) => {
  let database: Database;
  const master = masterKeyFrom(randomBytes(32).toString('base64url'));
  let keys: ContentKeys;

  beforeAll(async () => {
    database = await freshDatabase(kind);
    keys = sealedContentKeys(database.db, master);
  });
  afterAll(() => database.close());

  it('gives a title one 128-bit key, the same on every call, stored only sealed', async () => {
    const movieId = await insertMovie(database);
    const first = await keys.keyOf(movieId);
    expect(first.length).toBe(16);
    expect((await keys.keyOf(movieId)).equals(first)).toBe(true);
    const [row] = await database.db.select().from(titleKeys).where(eq(titleKeys.movieId, movieId));
    expect(row!.sealedKey).toMatch(/^v1\./);
    expect(row!.sealedKey).not.toContain(first.toString('base64url'));
    expect(row!.sealedKey).not.toContain(first.toString('hex'));
    expect(row!.sealedKey).not.toContain(first.toString('base64'));
  });

  it('agrees on one key when twenty callers ask for a new title at once', async () => {
    const movieId = await insertMovie(database);
    const got = await Promise.all(Array.from({ length: 20 }, () => keys.keyOf(movieId)));
    expect(new Set(got.map((k) => k.toString('hex'))).size).toBe(1);
    const rows = await database.db.select().from(titleKeys).where(eq(titleKeys.movieId, movieId));
    expect(rows).toHaveLength(1);
  });

  it('gives two titles different keys, and another master key opens neither', async () => {
    const [a, b] = [await insertMovie(database), await insertMovie(database)];
    const [keyA, keyB] = [await keys.keyOf(a), await keys.keyOf(b)];
    expect(keyA.equals(keyB)).toBe(false);
    const other = sealedContentKeys(database.db, masterKeyFrom(randomBytes(32).toString('base64url')));
    await expect(other.keyOf(a)).rejects.toThrow();
  });

  it('forgets the key with the movie', async () => {
    const movieId = await insertMovie(database);
    await keys.keyOf(movieId);
    await database.db.delete(movies).where(eq(movies.id, movieId));
    expect(await database.db.select().from(titleKeys).where(eq(titleKeys.movieId, movieId))).toHaveLength(0);
  });
});

describe('a sealed content key', () => {
  const master = masterKeyFrom('a master secret of at least thirty-two characters');
  const key = randomBytes(16);

  it('opens for its own movie only: moved onto another title’s row, it does not open', () => {
    const sealed = sealContentKey(master, 'movie-a', key);
    expect(openContentKey(master, 'movie-a', sealed).equals(key)).toBe(true);
    expect(() => openContentKey(master, 'movie-b', sealed)).toThrow();
  });

  it('refuses a sealed key changed by one character', () => {
    const sealed = sealContentKey(master, 'movie-a', key);
    const parts = sealed.split('.');
    const body = parts[2]!;
    parts[2] = (body[0] === 'A' ? 'B' : 'A') + body.slice(1);
    expect(() => openContentKey(master, 'movie-a', parts.join('.'))).toThrow();
    expect(() => openContentKey(master, 'movie-a', 'v0.x.y.z')).toThrow();
  });

  it('seals the same key differently each time', () => {
    expect(sealContentKey(master, 'movie-a', key)).not.toBe(sealContentKey(master, 'movie-a', key));
  });
});
