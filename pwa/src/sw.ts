/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
};

// The app shell: every built asset, index.html, offline.html, icons and the manifest.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
clientsClaim();

// Navigations load the precached shell (so the app opens offline); API, files and the payment sandbox pass through.
const shell = createHandlerBoundToURL('/index.html');
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await shell(options);
      } catch {
        return (await matchPrecache('/offline.html')) ?? Response.error();
      }
    },
    { denylist: [/^\/api(\/|$)/, /^\/files(\/|$)/, /^\/sandbox(\/|$)/] },
  ),
);

// The update prompt asks the waiting worker to take over.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
