import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { bytesReceived, nightBytesReceived, withBytes, dataDayKey, type DataDay } from './data-days.ts';
import { kampalaDate } from '@filamu/shared';
import { transition, type DownloadEvent, type LocalDownload } from './record.ts';
import { CHANNELS, DATABASES } from '../../../lib/storage-names.ts';

/**
 * IndexedDB holds the download records: the truth every tab, the engine worker and the service worker read.
 * Every write is one readwrite transaction (read → transition → put), so writers in different threads never
 * lose each other's changes, and each is announced on a BroadcastChannel.
 */
interface DownloadsDb extends DBSchema {
  downloads: { key: string; value: LocalDownload; indexes: { 'by-owner': string } };
  /** A download's subtitle files (decision 0173), under the download's key; kept apart so records stay small. */
  subtitles: { key: string; value: StoredSubtitles };
  /** Data received per person and Kampala day (decision 0216), outliving the downloads it was spent on. */
  dataDays: { key: string; value: DataDay; indexes: { 'by-owner': string } };
}

/** One subtitle language as the player needs it offline: the WebVTT text itself. */
export interface StoredSubtitleTrack {
  language: string;
  label: string;
  vtt: string;
}

export interface StoredSubtitles {
  /** The download's key (`${ownerId}:${movieId}`). */
  key: string;
  tracks: StoredSubtitleTrack[];
  /** When the server's list was last read (ms). */
  fetchedAt: number;
}

const DB_NAME = DATABASES.downloads;
/** 1: download records; 2: their subtitles; 3: data received per day. */
const DB_VERSION = 3;
const CHANNEL = CHANNELS.downloads;

export type ChannelMessage =
  /** A record changed in IndexedDB: read it again. */
  | { type: 'changed'; key: string }
  /** Live transfer figures (not stored): bytes on disk now, including the part not yet committed. */
  | { type: 'live'; key: string; received: number; speedBps: number }
  /** Something worth retrying for happened (back online, app visible, a new download). */
  | { type: 'kick' }
  /** The API refused our session: the page signs out. */
  | { type: 'unauthorized' };

let dbPromise: Promise<IDBPDatabase<DownloadsDb>> | null = null;

function openDownloadsDb(): Promise<IDBPDatabase<DownloadsDb>> {
  dbPromise ??= openDB<DownloadsDb>(DB_NAME, DB_VERSION, {
    // Each version adds to what the one before made; the download records already on a phone are never touched.
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        const store = db.createObjectStore('downloads', { keyPath: 'key' });
        store.createIndex('by-owner', 'ownerId');
      }
      if (oldVersion < 2) db.createObjectStore('subtitles', { keyPath: 'key' });
      if (oldVersion < 3) db.createObjectStore('dataDays', { keyPath: 'key' }).createIndex('by-owner', 'ownerId');
    },
    // A newer version opened in another tab (or the updated worker) waits for this connection: let it go, and open
    // again (at the newer version) on the next use.
    blocking(_current, _next, event) {
      (event.target as IDBDatabase).close();
      dbPromise = null;
    },
  });
  return dbPromise;
}

let channel: BroadcastChannel | null = null;
function getChannel(): BroadcastChannel {
  channel ??= new BroadcastChannel(CHANNEL);
  return channel;
}

/** Tells every other context (tabs, worker, service worker). BroadcastChannel does not echo to the sender. */
export function announce(message: ChannelMessage): void {
  getChannel().postMessage(message);
  for (const listener of localListeners) listener(message);
}

const localListeners = new Set<(message: ChannelMessage) => void>();

/** Hears every message, from this context or another. */
export function listen(listener: (message: ChannelMessage) => void): () => void {
  const own = new BroadcastChannel(CHANNEL);
  own.onmessage = (event: MessageEvent<ChannelMessage>) => listener(event.data);
  localListeners.add(listener);
  return () => {
    own.close();
    localListeners.delete(listener);
  };
}

export async function getDownload(key: string): Promise<LocalDownload | undefined> {
  return (await openDownloadsDb()).get('downloads', key);
}

export async function listDownloads(ownerId?: string): Promise<LocalDownload[]> {
  const db = await openDownloadsDb();
  const all = ownerId ? await db.getAllFromIndex('downloads', 'by-owner', ownerId) : await db.getAll('downloads');
  return all.sort((a, b) => a.createdAt - b.createdAt);
}

/** Stores a new record unless one exists for the key; returns the stored one. */
export async function createDownload(record: LocalDownload): Promise<LocalDownload> {
  const db = await openDownloadsDb();
  const tx = db.transaction('downloads', 'readwrite', { durability: 'strict' });
  const existing = await tx.store.get(record.key);
  if (!existing) await tx.store.put(record);
  await tx.done;
  announce({ type: 'changed', key: record.key });
  return existing ?? record;
}

/** Replaces a record (a cancelled one started again). */
export async function putDownload(record: LocalDownload): Promise<void> {
  const db = await openDownloadsDb();
  await db.put('downloads', record);
  announce({ type: 'changed', key: record.key });
}

/** Applies one event in one transaction; returns the record after it (undefined if there is none). */
export async function dispatch(key: string, event: DownloadEvent): Promise<LocalDownload | undefined> {
  const db = await openDownloadsDb();
  // Offsets are written only after the bytes are flushed; 'strict' keeps the record as durable as the bytes.
  // The day's data total moves in the same transaction as the bytes it counts: neither is ever written without the other.
  const tx = db.transaction(['downloads', 'dataDays'], 'readwrite', { durability: 'strict' });
  const downloads = tx.objectStore('downloads');
  const current = await downloads.get(key);
  if (!current) {
    await tx.done;
    return undefined;
  }
  const now = Date.now();
  const next = transition(current, event, now);
  if (next !== current) await downloads.put(next);
  const received = bytesReceived(current, next);
  if (received > 0) {
    const days = tx.objectStore('dataDays');
    const row = await days.get(dataDayKey(current.ownerId, kampalaDate(new Date(now))));
    await days.put(withBytes(row, current.ownerId, now, received, nightBytesReceived(current, next)));
  }
  await tx.done;
  if (next !== current) announce({ type: 'changed', key });
  return next;
}

export async function deleteDownload(key: string): Promise<void> {
  const db = await openDownloadsDb();
  await db.delete('downloads', key);
  announce({ type: 'changed', key });
}

export async function getSubtitles(key: string): Promise<StoredSubtitles | undefined> {
  return (await openDownloadsDb()).get('subtitles', key);
}

export async function putSubtitles(record: StoredSubtitles): Promise<void> {
  await (await openDownloadsDb()).put('subtitles', record);
}

export async function deleteSubtitles(key: string): Promise<void> {
  await (await openDownloadsDb()).delete('subtitles', key);
}

/** A person's data received per Kampala day on this phone, any order. */
export async function listDataDays(ownerId: string): Promise<DataDay[]> {
  return (await openDownloadsDb()).getAllFromIndex('dataDays', 'by-owner', ownerId);
}
