import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { renderDemoMovieFrames } from '../../api/demo/media/index.ts';
import { encodeMp4 } from '../../api/demo/media/mp4.ts';
import type { AdminMovie } from '../../shared/src/schemas/admin-movies.ts';
import type { DownloadSize, MovieSize } from '../../shared/src/schemas/renditions.ts';
import { apiCall } from './api.ts';
import { launchBrowser, useServer } from './browser.ts';
import { smallMovie } from './downloads.ts';
import { FaultProxy } from './fault-proxy.ts';
import { adminSession, registerUser, subscribeUser, uploadMovie } from './seed.ts';
import { type BuiltServer, startBuiltServer } from './server.ts';

/**
 * Films as the server stores them with ffmpeg at hand (decision 0235): renditions made and every file encrypted. For
 * the suites that start their own server with `FFMPEG_PATH`/`FFPROBE_PATH` (download-sizes, encrypted-download).
 */

/** A server of its own with ffmpeg, a browser, and the proxy the phones load everything through. */
export interface FilmServer {
  server: BuiltServer;
  browser: Browser;
  /** Misbehaves only on rendition files: every film file a phone fetches is an encrypted one under renditions/. */
  proxy: FaultProxy;
  /** The proxy's origin: where the phones open the app. */
  origin: string;
  close(): Promise<void>;
}

export async function startFilmServer(): Promise<FilmServer> {
  const server = await startBuiltServer(undefined, { FFMPEG_PATH: 'ffmpeg', FFPROBE_PATH: 'ffprobe' });
  useServer(server);
  const browser = await launchBrowser();
  const proxy = new FaultProxy({ upstream: server.baseURL, match: (path) => path.startsWith('/files/renditions/') });
  const origin = await proxy.listen();
  return {
    server,
    browser,
    proxy,
    origin,
    async close() {
      await browser.close();
      await proxy.close();
      useServer(null);
      await server.stop();
    },
  };
}

export interface AddedMovie {
  id: string;
  sizes: MovieSize[];
  /** The uploaded (plain) clip. */
  bytes: Buffer;
}

/**
 * Uploads a playable clip (a 3-second one unless given) in the plan and waits until the server has finished any
 * renditions of it and encrypted every file.
 */
export async function addMovie(
  planId: string,
  title: string,
  bytes: Buffer = smallMovie(title),
  category: 'Kinayuganda' | 'English' = 'Kinayuganda',
): Promise<AddedMovie> {
  const admin = await adminSession();
  const movie = await uploadMovie(bytes, {
    title,
    category,
    vj: category === 'English' ? 'Studio' : undefined,
    planIds: [planId],
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { movies } = await apiCall<{ movies: AdminMovie[] }>('/admin/movies', admin);
    const saved = movies.find((m) => m.id === movie.id)!;
    const busy =
      saved.renditions.some((r) => r.state === 'queued' || r.state === 'encoding') ||
      saved.encryption.encrypted < saved.encryption.files;
    if (!busy) return { id: movie.id, sizes: saved.sizes, bytes };
    if (Date.now() > deadline)
      throw new Error(`${title} was not encoded and encrypted in 90 s: ${JSON.stringify(saved)}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * A playable clip whose Small rendition is not tiny: the demo clip's frames under random noise, which the encoder cannot
 * squeeze, so Small comes out near its bitrate cap (about 50 KB a second: 80 s make about 4 MB). A download of it has
 * room for drops and a reload mid-way.
 */
export function noisyMovie(title: string, seconds: number): Buffer {
  function* frames() {
    for (const frame of renderDemoMovieFrames({
      title,
      palette: [[20, 40, 90] as const, [200, 90, 20] as const],
      seconds,
    })) {
      const noise = randomBytes(frame.data.length);
      for (let i = 0; i < frame.data.length; i += 1) {
        frame.data[i] = Math.min(255, Math.max(0, frame.data[i]! + (noise[i]! >> 1) - 64));
      }
      yield frame;
    }
  }
  return encodeMp4(frames(), { width: 192, height: 108, fps: 8 });
}

/**
 * The film's file of `size` as the server stores and serves it: fetched whole through a fresh link of another
 * subscriber of the plan (one key per title, one nonce per file: every phone gets these same bytes), with its nonce.
 */
export async function storedFilm(
  planId: string,
  movieId: string,
  size: DownloadSize,
): Promise<{ bytes: Buffer; fileNonce: string | null }> {
  const other = await registerUser();
  await subscribeUser(other.id, planId);
  const grant = await apiCall<{ downloadUrl: string; fileNonce: string | null; size: string }>(
    '/users/movies/generate-download-url',
    { method: 'POST', token: other.token, deviceId: other.deviceId, body: { movieId, size } },
  );
  if (grant.size !== size) throw new Error(`asked for ${size}, the link is for ${grant.size}`);
  const response = await fetch(grant.downloadUrl);
  if (!response.ok) throw new Error(`download link → ${response.status}`);
  return { bytes: Buffer.from(await response.arrayBuffer()), fileNonce: grant.fileNonce };
}

/** The first `count` bytes of the movie's file in OPFS. */
export async function opfsHead(page: Page, movieId: string, count: number): Promise<Buffer> {
  const bytes = await page.evaluate(
    async ({ movieId, count }) => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('downloads');
      for await (const [name, handle] of dir as unknown as AsyncIterable<[string, FileSystemFileHandle]>) {
        if (!name.includes(movieId)) continue;
        return [...new Uint8Array(await (await handle.getFile()).slice(0, count).arrayBuffer())];
      }
      return [];
    },
    { movieId, count },
  );
  return Buffer.from(bytes);
}

/** Why the film's licence kept on the phone no longer holds (`null` while it holds, `undefined` with none kept). */
export function revokedOnPhone(page: Page, movieId: string): Promise<string | null | undefined> {
  return page.evaluate(async (movieId) => {
    // Opening a database that is not there would make an empty one the app could not upgrade.
    if (!(await indexedDB.databases()).some((db) => db.name === 'filamu-licences')) return undefined;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('filamu-licences');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      if (!db.objectStoreNames.contains('licences')) return undefined;
      const all = await new Promise<{ movieId: string; revoked?: string }[]>((resolve, reject) => {
        const read = db.transaction('licences').objectStore('licences').getAll();
        read.onsuccess = () => resolve(read.result as { movieId: string; revoked?: string }[]);
        read.onerror = () => reject(read.error);
      });
      const held = all.find((entry) => entry.movieId === movieId);
      return held ? (held.revoked ?? null) : undefined;
    } finally {
      db.close();
    }
  }, movieId);
}

/**
 * Waits until the phone's online check (decision 0233) has marked the film's licence revoked for `reason` in the
 * licence store, where the Play screen reads it. (Polled from here: `waitForFunction` takes a returned promise for a
 * truthy answer without awaiting it.)
 */
export async function waitForRevoked(
  page: Page,
  movieId: string,
  reason: 'moved' | 'taken_down' | 'deleted',
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: string | null | undefined;
  while (Date.now() < deadline) {
    last = await revokedOnPhone(page, movieId).catch(() => undefined);
    if (last === reason) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the licence of ${movieId} was not marked ${reason}; last: ${String(last)}`);
}
