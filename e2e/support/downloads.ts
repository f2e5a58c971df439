import { generateDemoMovie } from '../../api/demo/media/index.ts';
import { newDownload, type LocalDownload } from '../../pwa/src/features/downloads/engine/record.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { login } from './browser.ts';
import { registerUser, subscribeUser } from './seed.ts';

/** A small, real H.264/MP4 clip (3 s) that Chromium can play. */
export function smallMovie(title: string): Buffer {
  return generateDemoMovie({ title, palette: [[20, 40, 90] as const, [200, 90, 20] as const], seconds: 3 }).bytes;
}

/** The signed-in person's token, device id and user id, as the PWA saved them. */
export async function browserSession(page: Page): Promise<{ token: string; deviceId: string; userId: string }> {
  return page.evaluate(() => {
    const saved = JSON.parse(localStorage.getItem('filamu.session')!) as { token: string; profile: { id: string } };
    return { token: saved.token, deviceId: localStorage.getItem('filamu.deviceId')!, userId: saved.profile.id };
  });
}

/** A download record as the engine leaves it, for `user:<userId>` (engine/record.ts). */
export function localRecord(
  userId: string,
  movie: { movieId: string; title: string; size: number },
  patch: Partial<LocalDownload>,
): LocalDownload {
  const fresh = newDownload(
    {
      ownerId: `user:${userId}`,
      category: 'Kinayuganda',
      vj: 'VJ Test',
      thumbnailUrl: null,
      fileName: `${movie.title}.mp4`,
      ...movie,
    },
    Date.now(),
  );
  return { ...fresh, ...patch };
}

/**
 * Writes a record into IndexedDB (`filamu-downloads` → `downloads`, created by the app on its first visit to a
 * downloads screen) and, when given, the movie's bytes into OPFS (`downloads/<key with ':' → '_'>.bin`), as
 * the engine would.
 */
export async function putLocalDownload(page: Page, record: LocalDownload, bytes?: Buffer): Promise<void> {
  await page.evaluate(
    async ({ record, base64 }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('filamu-downloads');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('downloads', 'readwrite');
        tx.objectStore('downloads').put(record);
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
      if (base64 === null) return;
      const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('downloads', { create: true });
      const handle = await folder.getFileHandle(`${record.key.replaceAll(':', '_')}.bin`, { create: true });
      const writable = await handle.createWritable();
      await writable.write(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
      await writable.close();
    },
    { record, base64: bytes ? bytes.toString('base64') : null },
  );
}

/** Whether the movie's file is in OPFS. */
export async function hasMovieFile(page: Page, key: string): Promise<boolean> {
  return page.evaluate(
    async (name) => {
      const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('downloads', { create: true });
      return folder
        .getFileHandle(name)
        .then(() => true)
        .catch(() => false);
    },
    `${key.replaceAll(':', '_')}.bin`,
  );
}

// An MP4 file type box first: the server checks magic bytes when a movie is saved.
const movieHead = () => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]);

export function movieBytes(size: number): Buffer {
  const head = movieHead();
  return Buffer.concat([head, randomBytes(size - head.length)]);
}

/**
 * The same kind of movie, `size` bytes, as a stream of random 1 MiB chunks made as they are read (for uploads too
 * big to hold in memory). Each call of `chunks` yields other random bytes; `seed.ts` uploads it in one PUT.
 */
export function movieStream(size: number): { size: number; chunks: () => AsyncIterable<Uint8Array> } {
  return {
    size,
    async *chunks() {
      const head = movieHead();
      yield head;
      for (let sent = head.length; sent < size;) {
        const next = Math.min(1024 * 1024, size - sent);
        yield randomBytes(next);
        sent += next;
      }
    },
  };
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface PageRecord {
  state: string;
  committed: number;
  size: number;
  etag: string | null;
  url: string | null;
  engine: string;
  resumes: number;
  bytesFromNetwork: number;
  reportedComplete: boolean;
  message: string | null;
  /** The size chosen (absent on records made before sizes). */
  sizeChoice?: string;
  /** The held file's signed manifest, once kept (decision 0243). */
  manifest?: string;
  /** The file's nonce when the film is held encrypted (decision 0229). */
  fileNonce?: string | null;
}

/** This device's record of a movie, read from IndexedDB in the page. */
export function readRecord(page: Page, movieId: string): Promise<PageRecord | null> {
  return page.evaluate(async (movieId) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('filamu-downloads');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      if (!db.objectStoreNames.contains('downloads')) return null;
      const all = await new Promise<Array<PageRecord & { movieId: string }>>((resolve, reject) => {
        const request = db.transaction('downloads').objectStore('downloads').getAll();
        request.onsuccess = () => resolve(request.result as Array<PageRecord & { movieId: string }>);
        request.onerror = () => reject(request.error);
      });
      return all.find((r) => r.movieId === movieId) ?? null;
    } finally {
      db.close();
    }
  }, movieId);
}

export async function waitForRecord(
  page: Page,
  movieId: string,
  done: (record: PageRecord) => boolean,
  timeoutMs = 60_000,
): Promise<PageRecord> {
  const deadline = Date.now() + timeoutMs;
  let last: PageRecord | null = null;
  while (Date.now() < deadline) {
    last = await readRecord(page, movieId).catch(() => null);
    if (last && done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`record of ${movieId} did not get there; last: ${JSON.stringify(last)}`);
}

/** SHA-256 of the movie's file in OPFS (read in 8 MiB slices, hashed in the test runner). */
export async function opfsSha256(page: Page, movieId: string): Promise<{ size: number; sha: string }> {
  const hash = createHash('sha256');
  const slice = 8 * 1024 * 1024;
  let offset = 0;
  let size!: number;
  for (;;) {
    const part = await page.evaluate(
      async ({ movieId, offset, slice }) => {
        const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('downloads');
        for await (const [name, handle] of dir as unknown as AsyncIterable<[string, FileSystemFileHandle]>) {
          if (!name.includes(movieId)) continue;
          const file = await handle.getFile();
          const bytes = new Uint8Array(await file.slice(offset, offset + slice).arrayBuffer());
          let binary = '';
          for (let i = 0; i < bytes.length; i += 0x8000)
            binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          return { size: file.size, base64: btoa(binary) };
        }
        return { size: -1, base64: '' };
      },
      { movieId, offset, slice },
    );
    size = part.size;
    const bytes = Buffer.from(part.base64, 'base64');
    hash.update(bytes);
    offset += bytes.length;
    if (bytes.length < slice || size < 0) break;
  }
  return { size, sha: hash.digest('hex') };
}

/** Done as the engine means it: every byte on disk and the completion reported to the API. */
export const isComplete = (r: { state: string; reportedComplete: boolean }) =>
  r.state === 'complete' && r.reportedComplete;

/** Registers a new subscriber of `planId` through the API and signs them in on `page`. */
export async function signInSubscriber(page: Page, planId: string): Promise<void> {
  const user = await registerUser();
  await subscribeUser(user.id, planId);
  await login(page, user.email, user.password);
  await page.waitForURL('**/dashboard');
}

/** A new subscriber of `planId`, signed in on a phone-sized screen of a new context whose pages load from `origin`. */
export async function subscriberPage(
  browser: Browser,
  origin: string,
  planId: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: origin,
    viewport: { width: 390, height: 844 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await signInSubscriber(page, planId);
  return { context, page };
}

/** Opens the movie's page and taps "Download Now", then the size the dialog pre-selected, as a person would. */
export async function tapDownload(page: Page, movieId: string): Promise<void> {
  await page.goto(`/movies/${movieId}`);
  await page.getByRole('button', { name: 'Download Now' }).click();
  await confirmSize(page);
}

/** In the size dialog Download Now opens, taps the button that downloads the pre-selected size. */
export async function confirmSize(page: Page): Promise<void> {
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^Download (Small|Standard|HD|Original)$/ })
    .click();
}

/**
 * The baseline a download manager is measured against: in the page, mint a link for the movie
 * (`POST /api/users/movies/generate-download-url`, as the signed-in user) and read it with one plain `fetch()`.
 * `discard` reads the body chunk by chunk and drops it, so the page never holds a big file.
 */
export async function plainFetch(page: Page, movieId: string, options: { discard?: boolean } = {}): Promise<number> {
  return page.evaluate(
    async ({ movieId, discard }) => {
      const { token } = JSON.parse(localStorage.getItem('filamu.session') ?? '{}') as { token: string };
      const minted = await fetch('/api/users/movies/generate-download-url', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: `Bearer ${token}`,
          'X-Device-Id': localStorage.getItem('filamu.deviceId') ?? '',
        },
        body: JSON.stringify({ movieId }),
      });
      if (!minted.ok) throw new Error(`generate-download-url → ${minted.status}`);
      const { downloadUrl } = (await minted.json()) as { downloadUrl: string };
      const response = await fetch(downloadUrl, { cache: 'no-store' });
      if (!discard) return (await response.arrayBuffer()).byteLength;
      const reader = response.body!.getReader();
      let received = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return received;
        received += value.byteLength;
      }
    },
    { movieId, discard: options.discard ?? false },
  );
}

/**
 * What the phone holds of a film's licence (decision 0230): whether its content key opens with this phone's own key,
 * as the player will open it — WebCrypto `unwrapKey` into a key that cannot be read out.
 */
export async function licenceOnPhone(
  page: Page,
  movieId: string,
): Promise<{ way: string; opens: boolean; extractable: boolean | null } | null> {
  return page.evaluate(async (movieId) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('filamu-licences');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const read = <T>(store: string, query: IDBValidKey | null) =>
      new Promise<T>((resolve, reject) => {
        const request =
          query === null
            ? db.transaction(store).objectStore(store).getAll()
            : db.transaction(store).objectStore(store).get(query);
        request.onsuccess = () => resolve(request.result as T);
        request.onerror = () => reject(request.error);
      });
    try {
      if (!db.objectStoreNames.contains('licences')) return null;
      const phone = await read<{ privateKey: CryptoKey } | undefined>('phoneKeys', 'licence');
      const kept = (
        await read<{ movieId: string; licence: { way: string; wrappedKey: string } }[]>('licences', null)
      ).find((entry) => entry.movieId === movieId);
      if (!phone || !kept) return null;
      const wrapped = Uint8Array.from(atob(kept.licence.wrappedKey.replaceAll('-', '+').replaceAll('_', '/')), (c) =>
        c.charCodeAt(0),
      );
      const key = await crypto.subtle
        .unwrapKey('raw', wrapped, phone.privateKey, { name: 'RSA-OAEP' }, { name: 'AES-CTR' }, false, ['decrypt'])
        .catch(() => null);
      return { way: kept.licence.way, opens: key !== null, extractable: key?.extractable ?? null };
    } finally {
      db.close();
    }
  }, movieId);
}

/**
 * Keeps a licence for `movieId` on the phone as the app keeps one (`filamu-licences`, decision 0230), with `rawKey`
 * wrapped for this phone's key — made here if the phone has none yet — as the server wraps it (RSA-OAEP, SHA-256).
 * It lets a test play an encrypted film without the server encrypting stored files. Returns the licence id.
 */
export async function keepLicenceOnPhone(
  page: Page,
  ownerId: string,
  movieId: string,
  rawKey: Buffer,
  revoked?: 'moved' | 'taken_down' | 'deleted',
): Promise<string> {
  return page.evaluate(
    async ({ ownerId, movieId, rawKey, revoked }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('filamu-licences', 1);
        request.onupgradeneeded = () => {
          request.result.createObjectStore('phoneKeys', { keyPath: 'name' });
          request.result.createObjectStore('licences', { keyPath: 'key' }).createIndex('by-owner', 'ownerId');
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const done = (request: IDBRequest) =>
        new Promise<unknown>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const toB64url = (bytes: ArrayBuffer) =>
        btoa(String.fromCharCode(...new Uint8Array(bytes)))
          .replaceAll('+', '-')
          .replaceAll('/', '_')
          .replaceAll('=', '');
      try {
        let phone = (await done(db.transaction('phoneKeys').objectStore('phoneKeys').get('licence'))) as
          { spki: string } | undefined;
        if (!phone) {
          const pair = await crypto.subtle.generateKey(
            { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
            false,
            ['wrapKey', 'unwrapKey'],
          );
          phone = { spki: toB64url(await crypto.subtle.exportKey('spki', pair.publicKey)) };
          await done(
            db
              .transaction('phoneKeys', 'readwrite')
              .objectStore('phoneKeys')
              .put({ name: 'licence', privateKey: pair.privateKey, spki: phone.spki }),
          );
        }
        const spki = Uint8Array.from(atob(phone.spki.replaceAll('-', '+').replaceAll('_', '/')), (c) =>
          c.charCodeAt(0),
        );
        const publicKey = await crypto.subtle.importKey('spki', spki, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [
          'encrypt',
        ]);
        const wrapped = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, new Uint8Array(rawKey));
        const id = crypto.randomUUID();
        const licence = {
          id,
          movieId,
          deviceId: localStorage.getItem('filamu.deviceId') ?? 'phone',
          deviceKeyId: 'test',
          wrappedKey: toB64url(wrapped),
          way: 'download',
          issuedAt: new Date().toISOString(),
          token: 'not-signed-in-tests',
        };
        await done(
          db
            .transaction('licences', 'readwrite')
            .objectStore('licences')
            .put({ key: `${ownerId}:${movieId}`, ownerId, movieId, licence, ...(revoked ? { revoked } : {}) }),
        );
        return id;
      } finally {
        db.close();
      }
    },
    { ownerId, movieId, rawKey: [...rawKey], revoked },
  );
}
