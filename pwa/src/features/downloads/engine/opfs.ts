/**
 * Movie bytes live in the origin private file system, one file per record: written in place by the engine
 * worker through a sync access handle, read back as a disk-backed File for playback and saving (never a
 * movie-sized Blob in memory).
 */
const FOLDER = 'downloads';

function fileNameOf(key: string): string {
  // Keys are `user:<uuid>:<uuid>`; OPFS names may not contain '/' and ':' is awkward on some platforms.
  return `${key.replaceAll(':', '_')}.bin`;
}

async function folder(): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(FOLDER, { create: true });
}

export async function movieFileHandle(key: string, create = false): Promise<FileSystemFileHandle> {
  return (await folder()).getFileHandle(fileNameOf(key), { create });
}

/** The finished movie as a File backed by disk (for `<video>` and saving). */
export async function movieFile(key: string): Promise<File> {
  return (await movieFileHandle(key)).getFile();
}

/** Deletes a movie's bytes; waits briefly while the engine still holds the file open. */
export async function removeMovieFile(key: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      await (await folder()).removeEntry(fileNameOf(key));
      return;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'NotFoundError') return;
      if (!(error instanceof DOMException && error.name === 'NoModificationAllowedError')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Bytes Filamu keeps on this device, and what the browser says is left. */
export interface StorageFigures {
  usedByFilamu: number;
  free: number | null;
}

/** The sum of the movie files this app holds (finished and partial), read from the files themselves. */
async function movieFilesBytes(): Promise<number> {
  let total = 0;
  for await (const handle of (await folder()).values()) {
    if (handle.kind !== 'file') continue;
    try {
      total += (await (handle as FileSystemFileHandle).getFile()).size;
    } catch {
      /* removed or held by the engine this instant: counted at the next look */
    }
  }
  return total;
}

/**
 * "Used by Filamu" is the app's own sum of its files: the browser's `usage` counts caches and padding, and was seen
 * reporting just under 4 GB on a phone holding one 90 KB film. The browser's figures decide only the free space,
 * and a usage above the quota is not believed (decision 0209).
 */
export async function storageFigures(): Promise<StorageFigures> {
  const usedByFilamu = await movieFilesBytes().catch(() => 0);
  if (!navigator.storage?.estimate) return { usedByFilamu, free: null };
  const { usage = 0, quota } = await navigator.storage.estimate();
  return { usedByFilamu, free: freeSpace(usage, quota) };
}

/** What is left for the app; null when the browser gives no believable figure. */
export function freeSpace(usage: number, quota: number | undefined): number | null {
  if (quota === undefined || !Number.isFinite(quota) || quota <= 0 || !Number.isFinite(usage) || usage < 0) return null;
  if (usage > quota) return null;
  return quota - usage;
}
