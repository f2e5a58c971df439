import { startTransition, StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { config as zodConfig } from 'zod/v4/core';
import { createAppRouter } from './app/router.tsx';
import { activateLocale, followOtherTabs, wantedLocale } from './lib/i18n.ts';
import { loadMeta } from './lib/meta.ts';
import { startServiceWorker } from './lib/service-worker-start.ts';
import { useSessionStore } from './lib/session.ts';
import { startSessionBootstrap } from './lib/session-start.ts';
import { DATABASES } from './lib/storage-names.ts';
import { initTheme } from './lib/theme.ts';
import './index.css';

// Zod would probe `new Function` to compile parsers, which the CSP forbids (and reports as a violation).
zodConfig({ jitless: true });
initTheme();
followOtherTabs();
startAccountLanguageWhenSignedIn();
void loadMeta();
startSessionBootstrap();
startServiceWorker();
startDownloadsWhenSignedIn();
startLicenceCheckAfterLoad();
startSealedKeysWhenIdle();

/**
 * Downloads pick up where they stopped as soon as the app opens, whatever the first screen, and start with the
 * first sign-in; the manager's chunk is never fetched for a visitor who has not signed in.
 */
function startDownloadsWhenSignedIn(): void {
  const resumeDownloads = () => void import('./features/downloads/autostart.ts').then((m) => m.ensureDownloadManager());
  // On a prerendered page this bundle itself arrives after the load event.
  const start = () => {
    if (document.readyState === 'complete') resumeDownloads();
    else window.addEventListener('load', resumeDownloads, { once: true });
  };
  // Signed out, the last person's films still show on My Downloads (decision 0233): the manager reads them.
  const wanted = (state: { token: string | null; keptOwnerId: string | null }) => !!(state.token || state.keptOwnerId);
  if (wanted(useSessionStore.getState())) return start();
  const stopWatching = useSessionStore.subscribe((state) => {
    if (!wanted(state)) return;
    stopWatching();
    start();
  });
}

/**
 * The account keeps the person's language (decision 0258): its module (and the API client it needs) is fetched only
 * once someone is signed in, never for a visitor on the landing.
 */
function startAccountLanguageWhenSignedIn(): void {
  const start = () => void import('./lib/account-language.ts').then((m) => m.startAccountLanguage());
  if (useSessionStore.getState().token) return start();
  const stopWatching = useSessionStore.subscribe((state) => {
    if (!state.token) return;
    stopWatching();
    start();
  });
}

/**
 * The phone asks whether the licences it holds still hold (decision 0233), signed in or not, once the page has loaded:
 * it never competes with the first screen, and its chunk is fetched only on a phone that has licences at all.
 */
function startLicenceCheckAfterLoad(): void {
  if (typeof indexedDB === 'undefined') return;
  const start = () =>
    void hasLicences()
      .then((some) => (some ? import('./features/licences/check.ts').then((m) => m.startLicenceCheck()) : undefined))
      .catch(() => undefined);
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

/**
 * The sealed keys that unlock a film by USSD with no data (decision 0249) are fetched in the background for the person
 * signed in, once the page has loaded and the browser is idle: never before the first screen. The chunk is fetched
 * only for someone signed in.
 */
function startSealedKeysWhenIdle(): void {
  if (typeof indexedDB === 'undefined' || !crypto?.subtle) return;
  const start = () => {
    const run = () =>
      void import('./features/licences/sealed-fetch.ts').then((m) => m.startSealedKeysFetch()).catch(() => undefined);
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 10_000 });
    else setTimeout(run, 2000);
  };
  const begin = () =>
    document.readyState === 'complete' ? start() : window.addEventListener('load', start, { once: true });
  if (useSessionStore.getState().token) return begin();
  const stopWatching = useSessionStore.subscribe((state) => {
    if (!state.token) return;
    stopWatching();
    begin();
  });
}

/** Whether this phone ever kept a licence (a browser that cannot list its databases is assumed to have). */
async function hasLicences(): Promise<boolean> {
  if (typeof indexedDB.databases !== 'function') return true;
  return (await indexedDB.databases()).some((db) => db.name === DATABASES.licences);
}

// The landing and the policy pages arrive prerendered (docs/decisions/0076): those are hydrated, the rest rendered.
const container = document.getElementById('root')!;
const prerendered = container.hasChildNodes();
// A prerendered page hydrates in the language it was rendered in (its <html lang>), then takes the one this phone
// asks for; any other screen renders in that language from the start (decision 0258).
const pageLocale = document.documentElement.lang === 'lg' ? 'lg' : 'en';
const app = (router: Awaited<ReturnType<typeof createAppRouter>>) => (
  <StrictMode>
    {/* Lets a navigation ask to commit at once (`flushSync: true`) when a state change after it depends on it. */}
    <RouterProvider
      router={router}
      flushSync={(update) => {
        flushSync(update);
      }}
    />
  </StrictMode>
);
void Promise.all([createAppRouter(prerendered), activateLocale(prerendered ? pageLocale : wantedLocale())]).then(
  ([router]) => {
    // As a transition, the first render (or the hydration of a prerendered page) yields to the browser every few
    // milliseconds instead of holding a slow phone's main thread in one long task; a plain render would not.
    // A prerendered page in the other language switches once hydrated (RootLayout's useWantedLocale).
    if (prerendered) startTransition(() => void hydrateRoot(container, app(router)));
    else {
      const root = createRoot(container);
      startTransition(() => root.render(app(router)));
    }
  },
);
