import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { DATABASES } from '../../lib/storage-names.ts';

/**
 * Where each person stopped in each movie on this phone, in IndexedDB beside the download records (its own database,
 * so the download engine's schema never changes for it). `synced` is false until the server has this position: the
 * queue of what to send when the phone is back online.
 */
export interface LocalPosition {
  /** `${ownerId}:${movieId}`, like the download records. */
  key: string;
  ownerId: string;
  movieId: string;
  title: string;
  positionSeconds: number;
  durationSeconds: number;
  /** When the person was there (ms, this phone's clock): the newest wins, here and on the server. */
  updatedAt: number;
  synced: boolean;
}

interface WatchingDb extends DBSchema {
  positions: { key: string; value: LocalPosition; indexes: { 'by-owner': string } };
}

let dbPromise: Promise<IDBPDatabase<WatchingDb>> | null = null;

function openWatchingDb(): Promise<IDBPDatabase<WatchingDb>> {
  dbPromise ??= openDB<WatchingDb>(DATABASES.watching, 1, {
    upgrade(db) {
      db.createObjectStore('positions', { keyPath: 'key' }).createIndex('by-owner', 'ownerId');
    },
  });
  return dbPromise;
}

export function positionKey(ownerId: string, movieId: string): string {
  return `${ownerId}:${movieId}`;
}

export async function listPositions(ownerId: string): Promise<LocalPosition[]> {
  return (await openWatchingDb()).getAllFromIndex('positions', 'by-owner', ownerId);
}

/**
 * Stores `next` unless a newer position is already here (another tab, or the server's from another phone); read and
 * write in one transaction. Returns what is stored afterwards.
 */
export async function mergePosition(next: LocalPosition): Promise<LocalPosition> {
  const db = await openWatchingDb();
  const tx = db.transaction('positions', 'readwrite');
  const current = await tx.store.get(next.key);
  let stored = current ?? next;
  if (!current || next.updatedAt > current.updatedAt) stored = next;
  else if (next.updatedAt === current.updatedAt && next.synced && !current.synced)
    stored = { ...current, synced: true };
  if (stored !== current) await tx.store.put(stored);
  await tx.done;
  return stored;
}
