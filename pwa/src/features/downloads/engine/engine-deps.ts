import type { Licence } from '@filamu/shared';
import { keepLicence, phoneKey } from '../../licences/store.ts';
import { movieFileHandle } from './opfs.ts';
import { filmManifest, mintLink, reportComplete, reportFailure, reportProgress, subtitleTracks } from './server.ts';
import type { FileSink } from './transfer.ts';

/**
 * What the engine reaches outside itself: the API, the network, the disk, Web Locks. The worker gets the browser's
 * (`browserEngineDeps`); unit tests pass fakes so the state machine runs in Node.
 */
export interface EngineDeps {
  server: {
    mintLink: typeof mintLink;
    reportProgress: typeof reportProgress;
    reportComplete: typeof reportComplete;
    reportFailure: typeof reportFailure;
    subtitleTracks: typeof subtitleTracks;
    filmManifest: typeof filmManifest;
  };
  /** The phone's licence key and where each film's licence is kept (decision 0230). */
  licences: {
    /** The public key sent with each link request; null when this browser cannot make one (the link still comes). */
    publicKey(): Promise<string | null>;
    keep(ownerId: string, licence: Licence): Promise<void>;
  };
  fetch: typeof fetch;
  /** The record's file, opened for writing (created if missing): an OPFS sync access handle in the browser. */
  openFile(key: string): Promise<FileSink & { close(): void }>;
  /** Runs `work` holding the named exclusive lock. */
  lock(name: string, work: () => Promise<void>): Promise<void>;
  /** The worker's own URL: links on its origin get `If-Range`. */
  pageUrl(): string;
  /** True when the browser says this connection is mobile data (Chrome on Android tells; others say nothing). */
  onMobileData(): boolean;
}

export function browserEngineDeps(): EngineDeps {
  return {
    server: { mintLink, reportProgress, reportComplete, reportFailure, subtitleTracks, filmManifest },
    licences: {
      publicKey: () =>
        phoneKey().then(
          (key) => key.spki,
          () => null,
        ),
      keep: keepLicence,
    },
    fetch: (input, init) => fetch(input, init),
    openFile: async (key) => (await movieFileHandle(key, true)).createSyncAccessHandle(),
    lock: (name, work) => navigator.locks.request(name, work),
    pageUrl: () => self.location.href,
    onMobileData: () => (navigator as Navigator & { connection?: { type?: string } }).connection?.type === 'cellular',
  };
}
