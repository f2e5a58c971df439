import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isMissing, removeQuietly, UPLOADS_FOLDER } from './local-objects.ts';
import { isUploadId, MULTIPART_FOLDER } from './local-multipart.ts';
import {
  type AbandonedUploadCutoffs,
  type AbandonedUploads,
  isServerKey,
  type Removed,
  type StoredFolder,
  type StoredObject,
} from './storage.ts';

/**
 * Listing and leftovers of the local folder, for the storage cleanup job (decision 0083). Only names this driver
 * creates are ever touched: server keys, `<uuid>.part` temp files and `<uuid>` staging folders.
 */

const TEMP_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.part$/;

async function namesIn(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/** lstat, or null when the entry vanished meanwhile (an upload finished, another replica removed it). */
async function statOrNull(path: string) {
  try {
    return await lstat(path);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export async function listLocalObjects(dir: string, folder: StoredFolder): Promise<StoredObject[]> {
  const objects: StoredObject[] = [];
  // Posters and renditions sit one level deeper, in a folder per movie (`posters/<movieId>/<width>.webp`,
  // `renditions/<movieId>/<kind>.mp4`).
  const names =
    folder === 'posters' || folder === 'renditions'
      ? (
          await Promise.all(
            (await namesIn(join(dir, folder))).map(async (movie) =>
              (await namesIn(join(dir, folder, movie))).map((name) => `${movie}/${name}`),
            ),
          )
        ).flat()
      : await namesIn(join(dir, folder));
  for (const name of names) {
    const key = `${folder}/${name}`;
    if (!isServerKey(key, folder)) continue;
    const stats = await statOrNull(join(dir, key));
    if (stats?.isFile()) objects.push({ key, size: stats.size, lastModified: stats.mtime });
  }
  return objects;
}

/**
 * Temp files are written as bytes arrive, so one last written before the cutoff belongs to no live request: a
 * crash or a cut connection whose clean-up never ran. A staging folder counts as touched by its newest entry.
 */
export async function removeAbandonedLocalUploads(
  dir: string,
  cutoffs: AbandonedUploadCutoffs,
): Promise<AbandonedUploads> {
  const tempFiles: Removed = { count: 0, bytes: 0 };
  const uploads = join(dir, UPLOADS_FOLDER);
  for (const name of await namesIn(uploads)) {
    if (!TEMP_FILE.test(name)) continue;
    const stats = await statOrNull(join(uploads, name));
    if (!stats?.isFile() || stats.mtimeMs >= cutoffs.tempFilesBefore.getTime()) continue;
    await removeQuietly(join(uploads, name));
    tempFiles.count += 1;
    tempFiles.bytes += stats.size;
  }

  const multipartUploads: Removed = { count: 0, bytes: 0 };
  const root = join(dir, MULTIPART_FOLDER);
  for (const name of await namesIn(root)) {
    if (!isUploadId(name)) continue;
    const staging = join(root, name);
    const folder = await statOrNull(staging);
    if (!folder?.isDirectory()) continue;
    let touched = folder.mtimeMs;
    let bytes = 0;
    for (const entry of await namesIn(staging)) {
      const stats = await statOrNull(join(staging, entry));
      if (!stats) continue;
      touched = Math.max(touched, stats.mtimeMs);
      bytes += stats.size;
    }
    if (touched >= cutoffs.multipartBefore.getTime()) continue;
    await rm(staging, { recursive: true, force: true });
    multipartUploads.count += 1;
    multipartUploads.bytes += bytes;
  }
  return { tempFiles, multipartUploads };
}
