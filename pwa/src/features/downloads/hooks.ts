import type { MovieSize } from '@filamu/shared';
import { useEffect, useState } from 'react';
import type { DataDay } from './engine/data-days.ts';
import { storageFigures, type StorageFigures } from './engine/opfs.ts';
import { listDataDays, listen } from './engine/store.ts';
import type { LocalDownload } from './engine/record.ts';
import { useDownloadsStore, type LiveFigures } from './manager.ts';
import { usePhoneSizes } from './phone-sizes.ts';
import { fromSizeText, sizesForThisPhone } from './sizes.ts';

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

/** Read again at most this often while bytes arrive: a download commits every second or two. */
const DATA_DAYS_REFRESH_MS = 3000;

/**
 * This person's data received per day on this phone and when it was read (the "today" it is shown against); null
 * while it loads (and when nobody is signed in).
 */
export function useDataDays(): { rows: DataDay[]; readAt: number } | null {
  const ownerId = useDownloadsStore((s) => s.ownerId);
  const [days, setDays] = useState<{ rows: DataDay[]; readAt: number } | null>(null);
  useEffect(() => {
    if (!ownerId) return;
    let alive = true;
    let pending: number | undefined;
    const load = () =>
      void listDataDays(ownerId)
        .catch(() => [])
        .then((rows) => alive && setDays({ rows, readAt: Date.now() }));
    load();
    const stop = listen((message) => {
      if (message.type !== 'changed' || !message.key.startsWith(`${ownerId}:`) || pending !== undefined) return;
      pending = window.setTimeout(() => {
        pending = undefined;
        load();
      }, DATA_DAYS_REFRESH_MS);
    });
    return () => {
      alive = false;
      window.clearTimeout(pending);
      stop();
      setDays(null);
    };
  }, [ownerId]);
  return days;
}

/**
 * "from 190.0 MB" on a card and the detail page: the smallest size this phone is offered. Until the decoder answers it
 * counts the H.264 Small, which every phone gets, rather than promise a size the phone may not be offered.
 */
export function useFromSizeText(sizes: readonly MovieSize[]): string | null {
  const offered = usePhoneSizes(sizes);
  return fromSizeText(offered ?? sizesForThisPhone(sizes, 'small'));
}
