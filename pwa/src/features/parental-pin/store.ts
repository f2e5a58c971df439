import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { DATABASES } from '../../lib/storage-names.ts';

/** This phone's wrong PIN tries per person, kept across reloads and offline (decision 0170). */
export interface PinTries {
  userId: string;
  failures: number;
  lockedUntil: number;
}

interface TriesDb extends DBSchema {
  tries: { key: string; value: PinTries };
}

let dbPromise: Promise<IDBPDatabase<TriesDb>> | undefined;
const db = () =>
  (dbPromise ??= openDB<TriesDb>(DATABASES.parentalPin, 1, {
    upgrade(database) {
      database.createObjectStore('tries', { keyPath: 'userId' });
    },
  }));

export const readTries = async (userId: string): Promise<PinTries | undefined> => (await db()).get('tries', userId);

export const writeTries = async (tries: PinTries): Promise<void> => void (await (await db()).put('tries', tries));

export const clearTries = async (userId: string): Promise<void> => (await db()).delete('tries', userId);
