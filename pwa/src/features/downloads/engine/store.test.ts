import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newDownload, type LocalDownload } from './record.ts';
import {
  createDownload,
  deleteDownload,
  dispatch,
  getDownload,
  listDownloads,
  listen,
  putDownload,
  type ChannelMessage,
} from './store.ts';

/** The downloads store on fake-indexeddb (decision 0189): what every tab, the worker and the service worker read. */
function record(ownerId: string, createdAt: number, title = 'Kasuku'): LocalDownload {
  const input = { ownerId, movieId: randomUUID(), title, category: 'English' as const, vj: 'VJ Emmy' };
  return newDownload({ ...input, thumbnailUrl: null, size: 1000, fileName: `${title}.mp4` }, createdAt);
}

describe('the downloads store', () => {
  it('keeps the first record for a key: a second create answers the stored one', async () => {
    const first = record(randomUUID(), 1);
    expect(await createDownload(first)).toEqual(first);
    const again = await createDownload({ ...first, title: 'Another title' });
    expect(again.title).toBe('Kasuku');
    expect((await getDownload(first.key))?.title).toBe('Kasuku');
  });

  it('lists one person’s downloads, oldest first, and nobody else’s', async () => {
    const owner = randomUUID();
    const later = record(owner, 200, 'Later');
    const earlier = record(owner, 100, 'Earlier');
    await createDownload(later);
    await createDownload(earlier);
    await createDownload(record(randomUUID(), 50, 'Someone else'));
    expect((await listDownloads(owner)).map((r) => r.title)).toEqual(['Earlier', 'Later']);
  });

  it('applies events through the state machine, stores the result and announces it', async () => {
    const stored = await createDownload(record(randomUUID(), 1));
    const heard: ChannelMessage[] = [];
    const stop = listen((message) => heard.push(message));
    try {
      const started = await dispatch(stored.key, { type: 'start' });
      expect(started?.state).toBe('downloading');
      await dispatch(stored.key, { type: 'committed', committed: 400, etag: '"e"', bytesFromNetwork: 400 });
      const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
      await settle();
      expect(heard.length).toBeGreaterThan(0);
      expect(heard.every((m) => m.type === 'changed' && m.key === stored.key)).toBe(true);
      // An event that does not apply leaves the record as it is and announces nothing.
      const before = heard.length;
      await dispatch(stored.key, { type: 'verified' });
      await settle();
      expect(heard).toHaveLength(before);
      expect(await getDownload(stored.key)).toMatchObject({ state: 'downloading', committed: 400, etag: '"e"' });
    } finally {
      stop();
    }
  });

  it('answers undefined for an event on a record that is gone, and replaces or deletes on request', async () => {
    const stored = await createDownload(record(randomUUID(), 1));
    await putDownload({ ...stored, state: 'cancelled' });
    expect((await getDownload(stored.key))?.state).toBe('cancelled');
    await deleteDownload(stored.key);
    expect(await getDownload(stored.key)).toBeUndefined();
    expect(await dispatch(stored.key, { type: 'start' })).toBeUndefined();
  });

  it('survives a new connection: records are in the database, not in memory', async () => {
    const stored = await createDownload(record(randomUUID(), 1));
    const request = indexedDB.open('filamu-downloads');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const read = db.transaction('downloads').objectStore('downloads').get(stored.key);
    const found = await new Promise<LocalDownload>((resolve) => (read.onsuccess = () => resolve(read.result)));
    db.close();
    expect(found).toEqual(stored);
  });
});
