import { contracts } from '@filamu/shared';
import { api } from '../../lib/api.ts';
import { currentOwnerId } from '../../lib/owner.ts';
import { useSessionStore } from '../../lib/session.ts';
import { openDeviceSecret } from './sealed-keys.ts';
import { keepSealedKeys, phoneKey, type SealedOwner, sealedOwner } from './store.ts';

/**
 * Sealed keys fetched in the background (decision 0249): while a signed-in person is online, the phone asks
 * `POST /users/sealed-keys` for its device secret and a sealed key per live film, page by page, and keeps them, so a
 * film that comes from another phone later can be unlocked by USSD with no data. Only the films numbered after the
 * highest one held are asked for; a few KB per hundred films. It never blocks a screen; a failure is silent.
 */

/** How often the phone asks for new films' sealed keys: a film added since then cannot be unlocked without data. */
export const SEALED_KEYS_EVERY_MS = 6 * 60 * 60 * 1000;
/** A whole fetch from the start once in a while: a film made live again under an old number comes with it. */
const WHOLE_FETCH_EVERY_MS = 30 * 24 * 60 * 60 * 1000;
/** More pages than any catalogue has: a server that keeps answering `next` is not followed forever. */
const MAX_PAGES = 200;
const FETCH_TIMEOUT_MS = 30_000;

/** Fetches the sealed keys this person lacks on this phone; throws on a failed request (the pages before are kept). */
export async function refreshSealedKeys(ownerId: string, now = Date.now()): Promise<void> {
  const { spki, privateKey } = await phoneKey();
  const held = await sealedOwner(ownerId);
  const whole = !held || held.spki !== spki || now - held.wholeAt > WHOLE_FETCH_EVERY_MS;
  let owner: SealedOwner | null = whole ? null : { ...held, fetchedAt: now };
  let after = owner?.highest ?? 0;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await api(
      contracts.unlock.sealedKeys,
      { body: { devicePublicKey: spki, after } },
      { redirectOn401: false, timeoutMs: FETCH_TIMEOUT_MS },
    );
    const first = owner === null;
    owner ??= {
      ownerId,
      spki,
      deviceKeyId: answer.deviceKeyId,
      keyDigits: answer.keyDigits,
      deviceSecret: await openDeviceSecret(answer.wrappedDeviceSecret, privateKey),
      highest: 0,
      fetchedAt: now,
      wholeAt: now,
    };
    // The first page of a whole fetch replaces what was held (another key of this phone, or a month old).
    await keepSealedKeys(owner, answer.films, first);
    owner = { ...owner, highest: Math.max(owner.highest, ...answer.films.map((film) => film.shortNumber)) };
    if (answer.next === null || answer.next <= after) return;
    after = answer.next;
  }
}

/** Whether this person's sealed keys on this phone are older than the cadence (or there are none). */
async function due(ownerId: string, now: number): Promise<boolean> {
  const held = await sealedOwner(ownerId);
  return !held || now - held.fetchedAt >= SEALED_KEYS_EVERY_MS;
}

let started = false;
let running: Promise<void> | null = null;

function refreshIfDue(): Promise<void> {
  const ownerId = currentOwnerId();
  if (running || !ownerId || !navigator.onLine) return running ?? Promise.resolve();
  running = due(ownerId, Date.now())
    .then((stale) => (stale ? refreshSealedKeys(ownerId) : undefined))
    .catch(() => undefined)
    .finally(() => {
      running = null;
    });
  return running;
}

/**
 * Refreshes now (signed in and online), on sign-in, each time the browser comes back online and when the app comes
 * back to the front, at most every few hours per person. Once per page; `main.tsx` calls it when the page is idle.
 */
export function startSealedKeysFetch(): Promise<void> {
  if (started || typeof window === 'undefined') return Promise.resolve();
  started = true;
  window.addEventListener('online', () => void refreshIfDue());
  globalThis.document?.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void refreshIfDue();
  });
  useSessionStore.subscribe((state, before) => {
    if (state.token && state.token !== before.token) void refreshIfDue();
  });
  return refreshIfDue();
}
