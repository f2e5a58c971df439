import { useEffect, useState } from 'react';
import { storageFigures, type StorageFigures } from './engine/opfs.ts';
import type { LocalDownload } from './engine/record.ts';
import { useDownloadsStore, type LiveFigures } from './manager.ts';

/** This person's downloads on this device, oldest first. */
export function useLocalDownloads(): LocalDownload[] {
  const records = useDownloadsStore((s) => s.records);
  return Object.values(records).sort((a, b) => a.createdAt - b.createdAt);
}

export function useLocalDownload(movieId: string): LocalDownload | undefined {
  return useDownloadsStore((s) => s.records[movieId]);
}

export function useLiveFigures(movieId: string): LiveFigures | undefined {
  return useDownloadsStore((s) => s.live[movieId]);
}

export function useChecking(movieId: string): boolean {
  return useDownloadsStore((s) => !!s.checking[movieId]);
}

/** Storage used by Filamu and free space, refreshed every `refreshMs` and whenever `version` changes (space freed). */
export function useStorageFigures(refreshMs = 5000, version = 0): StorageFigures | null {
  const [figures, setFigures] = useState<StorageFigures | null>(null);
  useEffect(() => {
    let alive = true;
    const load = () =>
      void storageFigures()
        .then((f) => alive && setFigures(f))
        .catch(() => undefined);
    load();
    const timer = window.setInterval(load, refreshMs);
    return () => {
      alive = false;
      window.clearInterval(timer);
    };
  }, [refreshMs, version]);
  return figures;
}
