/// <reference lib="webworker" />
import { pageFileFor, PREVIEW_PATH } from '@filamu/shared';
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { onBackgroundFail, onBackgroundSuccess } from './features/downloads/engine/background-complete.ts';
import type {
  BackgroundFetchEvent,
  BackgroundFetchUpdateUIEvent,
} from './features/downloads/engine/background-fetch-types.ts';
import { PLAY_PREFIX } from './features/downloads/play/play-address.ts';
import { answerPlay } from './features/downloads/play/sw-play.ts';
import { listenForPushes } from './features/push/sw-push.ts';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
};

// The app shell: every built asset, the pages (prerendered ones and app.html), offline.html, icons, manifest.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
clientsClaim();

// Navigations load the precached page for that address, as the server would answer it (a prerendered page or the
// app shell), so the app opens offline; API, files and the payment sandbox pass through.
const pageHandlers = new Map<string, ReturnType<typeof createHandlerBoundToURL>>();
const pageHandler = (path: string) => {
  const file = `/${pageFileFor(path)}`;
  let handler = pageHandlers.get(file);
  if (!handler) pageHandlers.set(file, (handler = createHandlerBoundToURL(file)));
  return handler;
};
// The public preview (docs/decisions/0215) is rendered by the server for the library of the moment: never the app
// shell, always the network (the browser's HTTP cache keeps it a minute), the offline page when there is none.
const isPreview = (pathname: string) => pathname === PREVIEW_PATH || pathname === `${PREVIEW_PATH}/`;
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && url.origin === self.location.origin && isPreview(url.pathname),
  async ({ request }) => {
    try {
      return await fetch(request);
    } catch {
      return (await matchPrecache('/offline.html')) ?? Response.error();
    }
  },
);
// An encrypted film on this phone plays from here (decision 0232): the player's range requests are answered from the
// file in OPFS, decrypted as they are read. Registered before the pages, so even a navigation there is never the app.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith(PLAY_PREFIX),
  ({ request }) => answerPlay(request),
  'GET',
);
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await pageHandler(options.url.pathname)(options);
      } catch {
        return (await matchPrecache('/offline.html')) ?? Response.error();
      }
    },
    { denylist: [/^\/api(\/|$)/, /^\/files(\/|$)/, /^\/sandbox(\/|$)/, /^\/play\//] },
  ),
);

// The update prompt asks the waiting worker to take over.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Background Fetch (Chrome/Edge): the browser downloads with the app closed; the result lands in OPFS here.
self.addEventListener('backgroundfetchsuccess', (event) => {
  const e = event as BackgroundFetchUpdateUIEvent;
  e.waitUntil(onBackgroundSuccess(e));
});
self.addEventListener('backgroundfetchfail', (event) => {
  const e = event as BackgroundFetchUpdateUIEvent;
  e.waitUntil(onBackgroundFail(e, false));
});
self.addEventListener('backgroundfetchabort', (event) => {
  const e = event as BackgroundFetchEvent;
  e.waitUntil(onBackgroundFail(e, true));
});
self.addEventListener('backgroundfetchclick', (event) => {
  const e = event as ExtendableEvent;
  e.waitUntil(self.clients.openWindow('/downloads'));
});

// Web Push: notifications the server sent (payment confirmed, new movies, plan ending) and what a tap opens.
listenForPushes();
