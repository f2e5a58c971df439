import { DOWNLOAD_SIZES, DataPriceSetting, type DownloadSize } from '@filamu/shared';
import { useSyncExternalStore } from 'react';
import { asRemembered, type SizePreference, type SmallFiles } from './sizes.ts';
import { readLocal, writeLocal } from '../../lib/local-storage.ts';
import { STORAGE_KEYS } from '../../lib/storage-names.ts';

/**
 * The person's download preferences on this phone (localStorage): hand downloads to the browser's Background
 * Fetch so they continue with the app closed (opt-in: the browser shows its own notification), wait for
 * Wi-Fi instead of using mobile data where the browser tells the network type, and remove a film once watched.
 */
export interface DownloadSettings {
  background: boolean;
  wifiOnly: boolean;
  /** "Always ask" (the default) or the size every download takes without asking. */
  defaultSize: SizePreference;
  /** The size picked in the size choice last time on this phone: pre-selected next time (decision 0208). */
  lastPickedSize: DownloadSize | null;
  /** "Small files": the smallest Small this phone plays, or the one every phone plays (decision 0252). */
  smallFiles: SmallFiles;
  /** "My bundle costs UGX … per GB": overrides the operator's price in the size choice; null = the operator's. */
  bundlePricePerGbUgx: number | null;
  /** "Delete after watching" (off unless turned on): leaving the player past 90 % removes the file (decision 0174). */
  deleteWatched: boolean;
}

export type Switches = 'background' | 'wifiOnly' | 'deleteWatched';

const KEYS: Record<Switches, string> = {
  background: STORAGE_KEYS.backgroundDownloads,
  wifiOnly: STORAGE_KEYS.wifiOnlyDownloads,
  deleteWatched: STORAGE_KEYS.deleteAfterWatching,
};

const SIZE_KEY = STORAGE_KEYS.defaultDownloadSize;
const LAST_PICKED_KEY = STORAGE_KEYS.lastPickedDownloadSize;
const PRICE_KEY = STORAGE_KEYS.bundlePricePerGb;
const SMALL_FILES_KEY = STORAGE_KEYS.smallFiles;

function readSize(key: string): DownloadSize | null {
  const value = readLocal(key);
  return DOWNLOAD_SIZES.includes(value as DownloadSize) ? (value as DownloadSize) : null;
}

function readPrice(): number | null {
  const value = readLocal(PRICE_KEY);
  const parsed = DataPriceSetting.safeParse({ dataPricePerGbUgx: value === null ? NaN : Number(value) });
  return parsed.success ? parsed.data.dataPricePerGbUgx : null;
}

function read(name: Switches): boolean {
  return readLocal(KEYS[name]) === '1';
}

let current: DownloadSettings = {
  background: read('background'),
  wifiOnly: read('wifiOnly'),
  defaultSize: readSize(SIZE_KEY) ?? 'ask',
  lastPickedSize: readSize(LAST_PICKED_KEY),
  smallFiles: readLocal(SMALL_FILES_KEY) === 'every-phone' ? 'every-phone' : 'this-phone',
  bundlePricePerGbUgx: readPrice(),
  deleteWatched: read('deleteWatched'),
};
const listeners = new Set<() => void>();

export function downloadSettings(): DownloadSettings {
  return current;
}

function changed(patch: Partial<DownloadSettings>): void {
  current = { ...current, ...patch };
  listeners.forEach((listener) => listener());
}

export function setDownloadSetting(name: Switches, on: boolean): void {
  writeLocal(KEYS[name], on ? '1' : null);
  changed({ [name]: on });
}

export function setDefaultSize(size: SizePreference): void {
  const kept = size === 'ask' ? size : asRemembered(size);
  writeLocal(SIZE_KEY, kept === 'ask' ? null : kept);
  changed({ defaultSize: kept });
}

export function setLastPickedSize(size: DownloadSize): void {
  const kept = asRemembered(size);
  writeLocal(LAST_PICKED_KEY, kept);
  changed({ lastPickedSize: kept });
}

export function setSmallFiles(smallFiles: SmallFiles): void {
  writeLocal(SMALL_FILES_KEY, smallFiles === 'every-phone' ? smallFiles : null);
  changed({ smallFiles });
}

/** Null goes back to the operator's price. */
export function setBundlePrice(pricePerGbUgx: number | null): void {
  writeLocal(PRICE_KEY, pricePerGbUgx === null ? null : String(pricePerGbUgx));
  changed({ bundlePricePerGbUgx: pricePerGbUgx });
}

export function onDownloadSettingsChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useDownloadSettings(): DownloadSettings {
  return useSyncExternalStore(onDownloadSettingsChange, downloadSettings, downloadSettings);
}

/** What the browser says about the connection (Chrome on Android); null where it says nothing. */
interface NetworkInformation extends EventTarget {
  type?: string;
  saveData?: boolean;
}

export function connectionInfo(): NetworkInformation | null {
  return (navigator as Navigator & { connection?: NetworkInformation }).connection ?? null;
}

/** Whether the browser can tell Wi-Fi from mobile data at all. */
export function knowsNetworkType(): boolean {
  return typeof connectionInfo()?.type === 'string';
}
