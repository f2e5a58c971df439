import { readLocal, writeLocal } from '../../lib/local-storage.ts';
import { STORAGE_KEYS } from '../../lib/storage-names.ts';

/** The last download speed this device measured, kept across visits for time estimates before a download starts. */
const SPEED_KEY = STORAGE_KEYS.downloadSpeed;

export function rememberSpeed(speedBps: number): void {
  writeLocal(SPEED_KEY, String(Math.round(speedBps)));
}

/** The last speed measured on this device (bytes/s), for time estimates; null before any download. */
export function measuredSpeed(): number | null {
  const value = Number(readLocal(SPEED_KEY));
  return value > 0 ? value : null;
}
