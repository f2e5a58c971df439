import { useSyncExternalStore } from 'react';

/**
 * The person's download preferences on this phone (localStorage): hand downloads to the browser's Background
 * Fetch so they continue with the app closed (opt-in: the browser shows its own notification), and wait for
 * Wi-Fi instead of using mobile data where the browser tells the network type.
 */
export interface DownloadSettings {
  background: boolean;
  wifiOnly: boolean;
}

const KEYS: Record<keyof DownloadSettings, string> = {
  background: 'filamu.backgroundDownloads',
  wifiOnly: 'filamu.wifiOnlyDownloads',
};

function read(name: keyof DownloadSettings): boolean {
  try {
    return localStorage.getItem(KEYS[name]) === '1';
  } catch {
    return false;
  }
}

let current: DownloadSettings = { background: read('background'), wifiOnly: read('wifiOnly') };
const listeners = new Set<() => void>();

export function downloadSettings(): DownloadSettings {
  return current;
}

export function setDownloadSetting(name: keyof DownloadSettings, on: boolean): void {
  try {
    if (on) localStorage.setItem(KEYS[name], '1');
    else localStorage.removeItem(KEYS[name]);
  } catch {
    /* storage unavailable: the choice lasts this visit */
  }
  current = { ...current, [name]: on };
  listeners.forEach((listener) => listener());
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
