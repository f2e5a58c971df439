import { STORAGE_KEYS } from './storage-names.ts';
/** This browser's device id: a random UUID made once and kept in localStorage (product §4, single-device login). */
const KEY = STORAGE_KEYS.deviceId;

function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

let memoryId: string | null = null;

export function getDeviceId(): string {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved) return saved;
    const id = randomUuid();
    localStorage.setItem(KEY, id);
    return id;
  } catch {
    memoryId ??= randomUuid();
    return memoryId;
  }
}

/** A fresh id after the server revoked this device's session. */
export function regenerateDeviceId(): string {
  const id = randomUuid();
  memoryId = id;
  try {
    localStorage.setItem(KEY, id);
  } catch {
    /* storage unavailable */
  }
  return id;
}
