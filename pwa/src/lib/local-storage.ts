/**
 * localStorage that may refuse: private mode, a full disk, storage switched off, or no window at all while the
 * pages are prerendered. A refused read is nothing saved; a refused write lasts this visit only.
 */
export function readLocal(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Saves `value` under `key`; null forgets it. */
export function writeLocal(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Refused: see readLocal.
  }
}
