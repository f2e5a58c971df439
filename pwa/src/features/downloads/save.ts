/**
 * "Save to phone": copies a finished movie out of the app's private storage into a file the person can see
 * (Downloads folder, gallery, another app). The file is streamed from disk; it is never read into memory.
 */
type SaveFilePicker = (options: { suggestedName?: string }) => Promise<FileSystemFileHandle>;

/** 'saved' (written through the file picker), 'started' (handed to the browser's downloads), or 'cancelled'. */
export type SaveResult = 'saved' | 'started' | 'cancelled';

/** How long the object URL stays valid after the browser's download starts (it reads the file from it). */
const REVOKE_AFTER_MS = 60_000;

export async function saveToPhone(file: File, fileName: string): Promise<SaveResult> {
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
