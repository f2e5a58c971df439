import { randomUUID } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { copyFile, type FileHandle, link, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { contentTypeOfKey, isServerKey, type ObjectInfo } from './storage.ts';

/**
 * The local object folder: `dir/<key>` for objects, `dir/.uploads/` for uploads in progress. Objects are
 * immutable (never rewritten under the same key), which is what makes the ETag below stable.
 */

/** Temporary files of uploads still being received; never visible under a key. */
export const UPLOADS_FOLDER = '.uploads';

/** `link` errors of file systems that have no hard links (some FUSE and network mounts). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

export class ObjectExistsError extends Error {
  constructor(key: string) {
    super(`an object already exists under ${key}`);
  }
}

/** The path of a key's object; null for anything that is not a server-generated key (no traversal, ever). */
export function objectPath(dir: string, key: string): string | null {
  return isServerKey(key) ? join(dir, key) : null;
}

/**
 * A strong validator (RFC 9110 §8.8.3) from size, modification time (ns) and inode: an object is written once
 * (temp file + link), so these never change while it lives, and a new object under a reused key would differ.
 */
export function etagOf(stats: BigIntStats): string {
  return `"${stats.size.toString(16)}-${stats.mtimeNs.toString(16)}-${stats.ino.toString(16)}"`;
}

export function infoOf(key: string, stats: BigIntStats): ObjectInfo {
  return {
    size: Number(stats.size),
    etag: etagOf(stats),
    lastModified: new Date(Number(stats.mtimeMs)),
    contentType: contentTypeOfKey(key),
  };
}

export async function statObject(path: string): Promise<BigIntStats | null> {
  try {
    const stats = await stat(path, { bigint: true });
    return stats.isFile() ? stats : null;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** A new, exclusive temp file under `dir/.uploads/`. */
export async function createTempFile(dir: string): Promise<{ path: string; handle: FileHandle }> {
  const folder = join(dir, UPLOADS_FOLDER);
  await mkdir(folder, { recursive: true });
  const path = join(folder, `${randomUUID()}.part`);
  return { path, handle: await open(path, 'wx') };
}

/**
 * Publishes a complete, closed temp file under its key, atomically and without overwriting: `link` fails with
 * EEXIST when the key exists (a `rename` would silently replace it, and objects are immutable), and readers see
 * either no object or the whole one. The temp name is removed either way; the folder entry is made durable.
 */
async function publishTempFile(tempPath: string, finalPath: string, key: string): Promise<void> {
  const folder = dirname(finalPath);
  await mkdir(folder, { recursive: true });
  try {
    await link(tempPath, finalPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new ObjectExistsError(key);
    if (!code || !NO_HARD_LINKS.has(code)) throw error;
    // A file system without hard links: check, then rename (still atomic for readers; only two uploads racing
    // to the same key, which a signed link makes practically impossible, could replace one another).
    if ((await statObject(finalPath)) !== null) throw new ObjectExistsError(key);
    await rename(tempPath, finalPath);
  } finally {
    await removeQuietly(tempPath);
  }
  await syncFolder(folder);
}

/**
 * Writes a new object through `write` into a temp file, fsyncs it and links it into place (see
 * publishTempFile); any failure removes the temp file, so a key never names half an object.
 */
export async function writeAtomically(
  dir: string,
  finalPath: string,
  key: string,
  write: (handle: FileHandle) => Promise<void>,
): Promise<void> {
  const temp = await createTempFile(dir);
  try {
    await write(temp.handle);
    await temp.handle.sync();
  } catch (error) {
    await temp.handle.close().catch(() => {});
    await removeQuietly(temp.path);
    throw error;
  }
  await temp.handle.close();
  await publishTempFile(temp.path, finalPath, key);
}

/** Writes `bytes` as a new object (server-side writes: the demo, tests). */
export async function writeObject(dir: string, key: string, bytes: Uint8Array): Promise<void> {
  const finalPath = objectPath(dir, key);
  if (!finalPath) throw new RangeError(`not a storage key: ${key}`);
  if ((await statObject(finalPath)) !== null) throw new ObjectExistsError(key);
  await writeAtomically(dir, finalPath, key, (handle) => handle.writeFile(bytes));
}

/**
 * Moves a local file in as the object under `key`, replacing any object there (a rendition made again): synced, then
 * renamed into place (atomic for readers). A process killed before the rename leaves the file where its owner put it,
 * never a temp file here. A file on another file system is copied through a temp file under `.uploads/` instead
 * (which the storage cleanup removes if a crash leaves it), then removed.
 */
export async function moveFileInto(dir: string, key: string, sourcePath: string): Promise<void> {
  const finalPath = objectPath(dir, key);
  if (!finalPath) throw new RangeError(`not a storage key: ${key}`);
  const source = await open(sourcePath, 'r+');
  await source.sync().finally(() => source.close());
  await mkdir(dirname(finalPath), { recursive: true });
  try {
    await rename(sourcePath, finalPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyInto(dir, finalPath, sourcePath);
    await removeQuietly(sourcePath);
  }
  await syncFolder(dirname(finalPath));
}

async function copyInto(dir: string, finalPath: string, sourcePath: string): Promise<void> {
  const temp = await createTempFile(dir);
  try {
    await temp.handle.close();
    await copyFile(sourcePath, temp.path);
    const synced = await open(temp.path, 'r+');
    await synced.sync().finally(() => synced.close());
    await rename(temp.path, finalPath);
  } catch (error) {
    await removeQuietly(temp.path);
    throw error;
  }
}

export async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (!isMissing(error)) throw error;
  });
}

/** So a rename or link survives a crash, not only the file's bytes. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Names of temp files of uploads in progress (tests check that broken uploads leave none). */
export async function pendingUploads(dir: string): Promise<string[]> {
  try {
    return await readdir(join(dir, UPLOADS_FOLDER));
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}
