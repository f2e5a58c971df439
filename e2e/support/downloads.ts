import { generateDemoMovie } from '../../api/demo/media/index.ts';
import { newDownload, type LocalDownload } from '../../pwa/src/features/downloads/engine/record.ts';
import type { Page } from 'playwright-core';
import { apiCall } from './api.ts';
import { baseURL } from './browser.ts';

type Admin = { token: string; deviceId: string };

/** A small, real H.264/MP4 clip (3 s) that Chromium can play. */
export function smallMovie(title: string): Buffer {
  return generateDemoMovie({ title, palette: [[20, 40, 90] as const, [200, 90, 20] as const], seconds: 3 }).bytes;
}

export async function createPlan(admin: Admin, name: string): Promise<string> {
  const { plan } = await apiCall<{ plan: { id: string } }>('/admin/subscription-plans', {
    method: 'POST',
    ...admin,
    body: {
      plan_name: name,
      price_ugx: 1000,
      description: '',
      features: ['Downloads'],
      global_expiry_date: '2030-12-31T23:59',
    },
  });
  return plan.id;
}

/** Uploads `bytes` as a movie the way the admin screen does, attached to `planIds`; returns the movie id. */
export async function addMovie(
  admin: Admin,
  movie: { title: string; category: 'Kinayuganda' | 'English'; bytes: Buffer; planIds: string[] },
): Promise<string> {
  const link = await apiCall<{ s3Key: string; presignedUrl: string; headers: Record<string, string> }>(
    '/admin/movies/generate-upload-url',
    {
      method: 'POST',
      ...admin,
      body: { fileName: 'movie.mp4', fileType: 'video/mp4', fileSize: movie.bytes.length, folder: 'movies' },
    },
  );
  const headers = Object.fromEntries(
    Object.entries(link.headers).filter(([name]) => name.toLowerCase() !== 'content-length'),
  );
  const put = await fetch(new URL(link.presignedUrl, `${baseURL()}/`), {
    method: 'PUT',
    headers,
    body: new Uint8Array(movie.bytes),
  });
  if (!put.ok) throw new Error(`upload → ${put.status}: ${await put.text()}`);
  const { id } = await apiCall<{ id: string }>('/admin/movies', {
    method: 'POST',
    ...admin,
    body: {
      title: movie.title,
      category: movie.category,
      vj: 'VJ Test',
      movieS3Key: link.s3Key,
      size: movie.bytes.length,
      planIds: movie.planIds,
    },
  });
  return id;
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
