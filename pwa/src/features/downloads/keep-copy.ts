import type { LocalDownload } from './engine/record.ts';

/**
 * "Keep a copy" (decision 0234): copies a finished film out of the app's private storage into a file the person can
 * see (Downloads folder, a memory card, another phone), exactly as the phone holds it. An encrypted film (its record
 * has a nonce, decision 0229) stays encrypted, named `<Title>.filamu`: the copy opens only in Filamu, on a phone with
 * its own licence for the film. A plain file stored before encryption is saved as the `.mp4` it always was. The file
 * is streamed from disk; it is never read into memory.
 */
type SaveFilePicker = (options: { suggestedName?: string }) => Promise<FileSystemFileHandle>;

/** 'saved' (written through the file picker), 'started' (handed to the browser's downloads), or 'cancelled'. */
export type SaveResult = 'saved' | 'started' | 'cancelled';

/** How long the object URL stays valid after the browser's download starts (it reads the file from it). */
const REVOKE_AFTER_MS = 60_000;
/** Long enough for any title, short enough for every phone's file system. */
const MAX_NAME_LENGTH = 100;

/** Whether the film is held encrypted: its copy is a `.filamu` file that only Filamu opens. */
export function isEncrypted(record: Pick<LocalDownload, 'fileNonce'>): boolean {
  return record.fileNonce != null;
}

/**
 * The title as a file name any phone accepts: letters, digits, spaces, `_` and `-` only (no path, no dot to hide or
 * fake an extension), spaces squeezed, at most 100 characters.
 */
export function safeFileTitle(title: string): string {
  const words = title
    .replace(/[^\p{L}\p{N}_ -]+/gu, ' ')
    .split(' ')
    .filter(Boolean);
  return words.join(' ').slice(0, MAX_NAME_LENGTH).trim() || 'Film';
}

/** `<Title>.filamu` for an encrypted film; a plain one keeps the name it was downloaded under. */
export function copyName(record: Pick<LocalDownload, 'title' | 'fileName' | 'fileNonce'>): string {
  return isEncrypted(record) ? `${safeFileTitle(record.title)}.filamu` : record.fileName;
}

export async function exportFile(file: Blob, fileName: string): Promise<SaveResult> {
  const picker = (window as Window & { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  if (picker) {
    let handle: FileSystemFileHandle;
    try {
      handle = await picker({ suggestedName: fileName });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
      throw error;
    }
    await file.stream().pipeTo(await handle.createWritable());
    return 'saved';
  }
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  return 'started';
}
