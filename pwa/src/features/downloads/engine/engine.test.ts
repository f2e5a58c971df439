import 'fake-indexeddb/auto';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FaultProxy } from '../../../../../e2e/support/fault-proxy.ts';
import { Engine } from './engine.ts';
import type { EngineDeps } from './engine-deps.ts';
import { NIGHT_OVER } from './night-rules.ts';
import { newDownload, type LocalDownload, type LocalState } from './record.ts';
import type { ServerAnswer } from './server.ts';
import { createDownload, dispatch, getDownload, getSubtitles, listen, type StoredSubtitleTrack } from './store.ts';
import type { FileSink } from './transfer.ts';
import { keepLicence, licenceOf, phoneKey } from '../../licences/store.ts';

/**
 * The download engine in Node (decision 0189): the real state machine and IndexedDB store (fake-indexeddb), real
 * HTTP transfers from a fault-injecting server, and a fake API and in-memory files in place of the browser's.
 */
class MemoryFile implements FileSink {
  bytes = Buffer.alloc(0);
  getSize() {
    return this.bytes.length;
  }
  truncate(size: number) {
    this.bytes =
      size <= this.bytes.length
        ? this.bytes.subarray(0, size)
        : Buffer.concat([this.bytes, Buffer.alloc(size - this.bytes.length)]);
  }
  write(data: Uint8Array, { at }: { at: number }) {
    if (at + data.byteLength > this.bytes.length) this.truncate(at + data.byteLength);
    Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(this.bytes, at);
    return data.byteLength;
  }
  flush() {}
  close() {}
}

const SIZE = 3 * 1024 * 1024 + 777;
const movie = randomBytes(SIZE);
const ETAG = '"movie-v1"';
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

type Refusal = Extract<ServerAnswer<unknown>, { ok: false }>;

/** The API as the engine sees it: links granted (or refused) in order, and every report it was sent. */
class FakeApi {
  refusals: Refusal[] = [];
  links = 0;
  progress: { downloadedBytes: number; status: string }[] = [];
  completed: { downloadId: string; bytes: number }[] = [];
  failed: string[] = [];
  /** The movie's subtitles as the server answers them (null: the calls failed). */
  subtitles: StoredSubtitleTrack[] | null = [];
  /** The licence keys the link requests carried. */
  licenceKeys: (string | undefined)[] = [];
  constructor(private readonly fileUrl: () => string) {}

  server(): EngineDeps['server'] {
    return {
      mintLink: async (_session, movieId, _size, devicePublicKey) => {
        this.licenceKeys.push(devicePublicKey);
        const refusal = this.refusals.shift();
        if (refusal) return refusal;
        this.links += 1;
        const value = {
          downloadUrl: `${this.fileUrl()}?link=${this.links}`,
          fileSize: SIZE,
          downloadId: 'download-1',
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
          etag: ETAG,
          fileName: 'movie.mp4',
          size: 'original' as const,
          downloadedBytes: 0,
          resumedCount: 0,
          redownloads: null,
          fileNonce: null,
          // What the server answers a link asked with the phone's key: the film's licence (decision 0230).
          licence: devicePublicKey
            ? {
                id: randomUUID(),
                movieId,
                deviceId: 'device-1',
                deviceKeyId: 'key-id',
                wrappedKey: 'wrapped',
                way: 'download' as const,
                issuedAt: new Date().toISOString(),
                token: 'signed',
              }
            : null,
        };
        return { ok: true as const, value };
      },
      reportProgress: async (_session, _id, downloadedBytes, _total, status = 'downloading') => {
        this.progress.push({ downloadedBytes, status });
        return { ok: true as const, value: {} as never };
      },
      reportComplete: async (_session, downloadId, bytes) => {
        this.completed.push({ downloadId, bytes });
        return { ok: true as const, value: {} as never };
      },
      reportFailure: async (_session, _id, error) => {
        this.failed.push(error);
        return { ok: true as const, value: {} as never };
      },
      subtitleTracks: async () => this.subtitles,
      filmManifest: async () => null,
    };
  }
}

let storage: FaultProxy;
let fileUrl: string;
beforeAll(async () => {
  storage = new FaultProxy({ match: () => true });
  fileUrl = `${await storage.listen()}/files/movies/movie.mp4`;
});
afterAll(() => storage.close());

/** One phone: its files survive an engine restart (a reload), as OPFS does. */
interface Phone {
  ownerId: string;
  key: string;
  api: FakeApi;
  files: Map<string, MemoryFile>;
  /** Every state the record was seen in, in order, without repeats. */
  seen: LocalState[];
  engines: Engine[];
}

const phones: Phone[] = [];
const stops: (() => void)[] = [];
afterEach(() => {
  // Signed out, an engine aborts its transfer and sleeps; its listener goes.
  for (const phone of phones.splice(0)) for (const engine of phone.engines) engine.setAuth(null, null, 'device');
  for (const stop of stops.splice(0)) stop();
  storage.reset();
});

async function newPhone(): Promise<Phone> {
  storage.override = { body: movie, etag: ETAG };
  const ownerId = randomUUID();
  const record = newDownload(
    {
      ownerId,
      movieId: randomUUID(),
      title: 'Kasuku',
      category: 'Kinayuganda',
      vj: 'VJ Junior',
      thumbnailUrl: null,
      size: SIZE,
      fileName: 'kasuku.mp4',
    },
    Date.now(),
  );
  const phone: Phone = {
    ownerId,
    key: record.key,
    api: new FakeApi(() => fileUrl),
    files: new Map(),
    seen: [],
    engines: [],
  };
  phones.push(phone);
  await createDownload(record);
  // Every change is announced; reading the record after each shows the states a screen would have shown.
  stops.push(
    listen((message) => {
      if (message.type !== 'changed' || message.key !== phone.key) return;
      void getDownload(phone.key).then((now) => {
        if (now && phone.seen.at(-1) !== now.state) phone.seen.push(now.state);
      });
    }),
  );
  return phone;
}

/** Starts an engine on the phone the way the worker does: listening for record changes, signed in. */
function startEngine(phone: Phone): Engine {
  const engine = new Engine({
    server: phone.api.server(),
    licences: { publicKey: () => phoneKey().then((key) => key.spki), keep: keepLicence },
    fetch: (input, init) => fetch(input, init),
    openFile: async (key) => {
      const file = phone.files.get(key) ?? new MemoryFile();
      phone.files.set(key, file);
      return file;
    },
    lock: (_name, work) => work(),
    pageUrl: () => 'http://localhost/downloads',
    onMobileData: () => false,
  });
  phone.engines.push(engine);
  stops.push(
    listen((message) => {
      if (message.type === 'changed') void engine.onRecordChanged(message.key);
    }),
  );
  engine.setAuth(phone.ownerId, 'token', 'device-1');
  void engine.run();
  return engine;
}

async function recordOf(phone: Phone): Promise<LocalDownload> {
  const record = await getDownload(phone.key);
  if (!record) throw new Error('the record is gone');
  return record;
}

async function until(phone: Phone, check: (record: LocalDownload) => boolean, timeout = 20_000) {
  await vi.waitFor(
    async () => {
      const record = await recordOf(phone);
      if (!check(record)) throw new Error(`still ${record.state} at ${record.committed} bytes`);
    },
    { timeout, interval: 20 },
  );
  return recordOf(phone);
}

describe('the download engine with a fake API and IndexedDB', () => {
  it('takes a queued download to complete, byte-exact, and tells the server once', async () => {
    const phone = await newPhone();
    startEngine(phone);
    const done = await until(phone, (r) => r.state === 'complete' && r.reportedComplete);
    expect(sha(phone.files.get(phone.key)!.bytes)).toBe(sha(movie));
    expect(done).toMatchObject({ committed: SIZE, bytesFromNetwork: SIZE, resumes: 0, etag: ETAG, url: null });
    expect(phone.seen).toEqual(expect.arrayContaining(['downloading', 'complete']));
    expect(phone.seen.indexOf('downloading')).toBeLessThan(phone.seen.indexOf('complete'));
    expect(phone.api.completed).toEqual([{ downloadId: 'download-1', bytes: SIZE }]);
    expect(storage.log).toHaveLength(1);
  });

  it('asks for the link with this phone’s licence key and keeps the licence that comes with it', async () => {
    const phone = await newPhone();
    startEngine(phone);
    const done = await until(phone, (r) => r.state === 'complete' && r.reportedComplete);
    const key = await phoneKey();
    expect(key.privateKey.extractable).toBe(false);
    expect(phone.api.licenceKeys).toEqual([key.spki]);
    const kept = await licenceOf(phone.ownerId, done.movieId);
    expect(kept).toMatchObject({ movieId: done.movieId, ownerId: phone.ownerId, licence: { way: 'download' } });
    // One key for the phone: the next film's link carries the same.
    expect((await phoneKey()).spki).toBe(key.spki);
  });

  it('keeps the film’s subtitles before it says the film is done, so closing the app at once loses nothing', async () => {
    const phone = await newPhone();
    const luganda = { language: 'lg', label: 'Luganda', vtt: 'WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nOli otya?\n' };
    phone.api.subtitles = [luganda];
    const stored: (StoredSubtitleTrack[] | undefined)[] = [];
    stops.push(
      listen((message) => {
        if (message.type !== 'changed' || message.key !== phone.key) return;
        void getDownload(phone.key).then(async (now) => {
          if (now?.reportedComplete) stored.push((await getSubtitles(phone.key))?.tracks);
        });
      }),
    );
    startEngine(phone);
    await until(phone, (r) => r.state === 'complete' && r.reportedComplete);
    await vi.waitFor(() => expect(stored.length).toBeGreaterThan(0));
    expect(stored[0]).toEqual([luganda]);
  });

  it('says the film is done even when its subtitles could not be fetched (the Play screen asks again)', async () => {
    const phone = await newPhone();
    phone.api.subtitles = null;
    startEngine(phone);
    await until(phone, (r) => r.state === 'complete' && r.reportedComplete);
    expect(await getSubtitles(phone.key)).toBeUndefined();
  });

  it('waits for the network after a drop and, back online, resumes from the committed bytes', async () => {
    storage.faults.push({ dropAfter: 1_500_000 });
    const phone = await newPhone();
    const engine = startEngine(phone);
    const waiting = await until(phone, (r) => r.state === 'waiting-network');
    expect(waiting.message).toBe('Waiting for network');
    // What arrived before the drop is flushed and kept.
    expect(waiting.committed).toBeGreaterThan(1024 * 1024);
    expect(waiting.committed).toBeLessThanOrEqual(1_500_000);
    engine.kick(); // what coming back online does
    const done = await until(phone, (r) => r.state === 'complete');
    expect(sha(phone.files.get(phone.key)!.bytes)).toBe(sha(movie));
    expect(storage.log.map((entry) => entry.range)).toEqual([null, `bytes=${waiting.committed}-`]);
    // Only bytes received but not yet on disk when the drop came are fetched twice.
    expect(done.bytesFromNetwork).toBeGreaterThanOrEqual(SIZE);
    expect(done.bytesFromNetwork).toBeLessThanOrEqual(SIZE + 1_500_000 - waiting.committed);
    expect(done.resumes).toBe(1);
    expect(phone.seen.indexOf('waiting-network')).toBeLessThan(phone.seen.lastIndexOf('downloading'));
  });

  it('stops writing when the person pauses, tells the server, and resumes where it stopped', async () => {
    storage.throttleBps = 1024 * 1024;
    const phone = await newPhone();
    const engine = startEngine(phone);
    await until(phone, (r) => r.committed > 0);
    await dispatch(phone.key, { type: 'pause' });
    const paused = await until(phone, (r) => r.state === 'paused');
    await vi.waitFor(() => expect(phone.api.progress.at(-1)?.status).toBe('paused'));
    const onDisk = phone.files.get(phone.key)!.getSize();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(phone.files.get(phone.key)!.getSize()).toBe(onDisk);
    expect((await recordOf(phone)).state).toBe('paused');

    storage.throttleBps = null;
    await dispatch(phone.key, { type: 'resume' });
    engine.kick();
    const done = await until(phone, (r) => r.state === 'complete');
    expect(sha(phone.files.get(phone.key)!.bytes)).toBe(sha(movie));
    expect(storage.log.at(-1)!.range).toBe(`bytes=${paused.committed}-`);
    expect(done.resumes).toBe(1);
  });

  it('after a reload, a new engine picks the paused download up from the same store and file', async () => {
    storage.throttleBps = 1024 * 1024;
    const phone = await newPhone();
    const first = startEngine(phone);
    await until(phone, (r) => r.committed > 0);
    await dispatch(phone.key, { type: 'pause' });
    const paused = await until(phone, (r) => r.state === 'paused');
    first.setAuth(null, null, 'device-1'); // the tab goes away

    storage.throttleBps = null;
    await dispatch(phone.key, { type: 'resume' });
    startEngine(phone);
    const done = await until(phone, (r) => r.state === 'complete' && r.reportedComplete);
    expect(sha(phone.files.get(phone.key)!.bytes)).toBe(sha(movie));
    expect(storage.log.at(-1)!.range).toBe(`bytes=${paused.committed}-`);
    expect(phone.api.completed).toHaveLength(1);
    expect(done).toMatchObject({ committed: SIZE, resumes: 1 });
  });

  it('shows the server’s reason when a link is refused, and fetches nothing', async () => {
    const phone = await newPhone();
    const message = 'Your subscription has ended. Renew to keep downloading.';
    phone.api.refusals.push({ ok: false, status: 403, code: 'subscription_required', message, retryAfterMs: null });
    startEngine(phone);
    const failed = await until(phone, (r) => r.state === 'failed');
    expect(failed.message).toBe(message);
    expect(storage.log).toHaveLength(0);
  });

  it('waits as long as the server says when links are rate-limited, saying so', async () => {
    const phone = await newPhone();
    const refusal = { ok: false, status: 429, code: 'rate_limited', message: 'Slow down', retryAfterMs: 120_000 };
    phone.api.refusals.push(refusal as Refusal);
    const engine = startEngine(phone);
    const waiting = await until(phone, (r) => r.state === 'waiting-network');
    expect(waiting.message).toBe('The server is busy: resuming in 2 min');
    engine.kick(); // a kick does not cut the server's Retry-After short
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(phone.api.links).toBe(0);
    expect(storage.log).toHaveLength(0);
  });
  it('runs a film for tonight only inside its window, and stops it mid-transfer at the end with its bytes kept', async () => {
    const phone = await newPhone();
    await dispatch(phone.key, { type: 'tonight', message: 'Waiting for tonight' });
    startEngine(phone);
    await new Promise((r) => setTimeout(r, 300));
    // Before the window: not a link asked for, not a byte fetched.
    expect(phone.api.links).toBe(0);
    expect(storage.log).toHaveLength(0);

    storage.throttleBps = 1024 * 1024;
    await dispatch(phone.key, { type: 'night-open', until: Date.now() + 1600 });
    phone.engines[0]!.kick();
    const paused = await until(phone, (r) => r.state === 'paused');
    expect(paused.message).toBe(NIGHT_OVER);
    expect(paused.committed).toBeGreaterThan(0);
    expect(paused.committed).toBeLessThan(SIZE);
    expect(paused.nightBytes).toBe(paused.bytesFromNetwork);
    expect(phone.files.get(phone.key)!.getSize()).toBeGreaterThanOrEqual(paused.committed);
    await new Promise((r) => setTimeout(r, 300));
    expect(storage.log).toHaveLength(1);
    expect((await recordOf(phone)).state).toBe('paused');
  });
});
