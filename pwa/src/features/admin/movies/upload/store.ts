import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { StoredUpload } from './record.ts';
import { DATABASES } from '../../../../lib/storage-names.ts';

/** Unfinished admin uploads in IndexedDB (one record per upload item), so a reload can resume them. */
interface UploadsDb extends DBSchema {
  uploads: { key: string; value: StoredUpload };
}

export interface UploadRecords {
  list(): Promise<StoredUpload[]>;
  put(record: StoredUpload): Promise<void>;
  delete(id: string): Promise<void>;
}

let dbPromise: Promise<IDBPDatabase<UploadsDb>> | null = null;
const db = () => {
  dbPromise ??= openDB<UploadsDb>(DATABASES.uploads, 1, {
    upgrade(database) {
      database.createObjectStore('uploads', { keyPath: 'id' });
    },
  });
  return dbPromise;
};

export const indexedDbRecords: UploadRecords = {
  async list() {
    const all = await (await db()).getAll('uploads');
    return all.sort((a, b) => a.createdAt - b.createdAt);
  },
  async put(record) {
    await (await db()).put('uploads', record);
  },
  async delete(id) {
    await (await db()).delete('uploads', id);
  },
};

/** For tests and browsers without IndexedDB (private windows of some browsers): nothing survives a reload. */
export function memoryRecords(): UploadRecords & { records: Map<string, StoredUpload> } {
  const records = new Map<string, StoredUpload>();
  const copy = (record: StoredUpload) => structuredClone(record);
  return {
    records,
    async list() {
      return [...records.values()].map(copy).sort((a, b) => a.createdAt - b.createdAt);
    },
    async put(record) {
      records.set(record.id, copy(record));
    },
    async delete(id) {
      records.delete(id);
    },
  };
}
