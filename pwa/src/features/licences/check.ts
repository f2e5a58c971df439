import { contracts, type LicenceRevokedReason } from '@filamu/shared';
import { api } from '../../lib/api.ts';
import { licenceOwners, licencesOf, markRevoked } from './store.ts';

/**
 * The phone's online check (decision 0230, decision 0233): every licence it holds, for everyone who downloaded on it,
 * is sent to `POST /licences/check`, and the ones that no longer hold (moved to another phone, taken down, or of a
 * deleted account) are marked revoked in the licence store, where the Play screen reads them. It needs no session:
 * a phone signed out by the single-device rule keeps playing what it holds, so it must still hear of a revocation.
 * It never blocks a screen, and a failure is silent: the next chance (start, back online, a few hours later) asks again.
 */

/** The server answers about at most this many licences at once. */
export const CHECK_BATCH_SIZE = 500;
/** While the app stays open, the check runs again after this long. */
export const CHECK_EVERY_MS = 4 * 60 * 60 * 1000;
/** A connection that drops and comes back again and again asks at most this often. */
const ONLINE_GAP_MS = 5 * 60 * 1000;
/** A check is a few small requests: a slow one gives up long before the API client's default. */
const CHECK_TIMEOUT_MS = 30_000;

type Revoked = { id: string; reason: LicenceRevokedReason };

/** One check of every licence this phone holds that still plays; throws on the first batch that fails. */
export async function checkHeldLicences(): Promise<void> {
  const ownerOf = new Map<string, string>();
  for (const ownerId of await licenceOwners()) {
    // A revoked licence stays revoked (a new one replaces it): it is not asked about again.
    for (const held of await licencesOf(ownerId)) if (!held.revoked) ownerOf.set(held.licence.id, ownerId);
  }
  const ids = [...ownerOf.keys()];
  for (let start = 0; start < ids.length; start += CHECK_BATCH_SIZE) {
    const { revoked } = await api(
      contracts.licences.checkLicences,
      { body: { ids: ids.slice(start, start + CHECK_BATCH_SIZE) } },
      { redirectOn401: false, timeoutMs: CHECK_TIMEOUT_MS },
    );
    // Kept batch by batch: a later batch that fails does not lose what an earlier one heard.
    const byOwner = new Map<string, Revoked[]>();
    for (const entry of revoked) {
      const ownerId = ownerOf.get(entry.id);
      if (ownerId) byOwner.set(ownerId, [...(byOwner.get(ownerId) ?? []), entry]);
    }
    for (const [ownerId, list] of byOwner) await markRevoked(ownerId, list);
  }
}

let started = false;
let running: Promise<void> | null = null;
/** When the last check finished (ms); 0 before the first. */
let lastChecked = 0;

/** Runs a check unless one is running, the phone is offline, or the last one is more recent than `gapMs`. */
function checkIfDue(gapMs: number): Promise<void> {
  if (running || !navigator.onLine || Date.now() - lastChecked < gapMs) return running ?? Promise.resolve();
  running = checkHeldLicences()
    .then(
      () => {
        lastChecked = Date.now();
      },
      () => undefined,
    )
    .finally(() => {
      running = null;
    });
  return running;
}

/**
 * Checks now (when online), again each time the browser comes back online, and every few hours while the app is
 * open or comes back to the front. Once per page; `main.tsx` calls it after the page has loaded.
 */
export function startLicenceCheck(): Promise<void> {
  if (started || typeof window === 'undefined') return Promise.resolve();
  started = true;
  window.addEventListener('online', () => void checkIfDue(ONLINE_GAP_MS));
  // A phone in a pocket pauses timers: coming back to the app catches up on a check that is due.
  globalThis.document?.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void checkIfDue(CHECK_EVERY_MS);
  });
  setInterval(() => void checkIfDue(CHECK_EVERY_MS), CHECK_EVERY_MS);
  return checkIfDue(0);
}
