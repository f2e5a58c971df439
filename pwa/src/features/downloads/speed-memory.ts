import { STORAGE_KEYS } from '../../lib/storage-names.ts';
/** The last download speed this device measured, kept across visits for time estimates before a download starts. */
const SPEED_KEY = STORAGE_KEYS.downloadSpeed;

export function rememberSpeed(speedBps: number): void {
  try {
    localStorage.setItem(SPEED_KEY, String(Math.round(speedBps)));
  } catch {
    /* storage unavailable */
  }
}

/** The last speed measured on this device (bytes/s), for time estimates; null before any download. */
export function measuredSpeed(): number | null {
  try {
    const value = Number(localStorage.getItem(SPEED_KEY));
    return value > 0 ? value : null;
  } catch {
    return null;
  }
}
