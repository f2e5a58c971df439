import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { config as zodConfig } from 'zod/v4/core';
import { createAppRouter } from './app/router.tsx';
import { loadMeta } from './lib/meta.ts';
import { startServiceWorker } from './lib/service-worker-start.ts';
import { useSessionStore } from './lib/session.ts';
import { startSessionBootstrap } from './lib/session-start.ts';
import { initTheme } from './lib/theme.ts';
import './index.css';

// Zod would probe `new Function` to compile parsers, which the CSP forbids (and reports as a violation).
zodConfig({ jitless: true });
initTheme();
void loadMeta();
startSessionBootstrap();
startServiceWorker();
startDownloadsWhenSignedIn();

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
  if (useSessionStore.getState().token) return start();
  const stopWatching = useSessionStore.subscribe((state) => {
    if (!state.token) return;
    stopWatching();
    start();
  });
}

// The landing and the policy pages arrive prerendered (docs/decisions/0076): those are hydrated, the rest rendered.
const container = document.getElementById('root')!;
const prerendered = container.hasChildNodes();
const app = (router: Awaited<ReturnType<typeof createAppRouter>>) => (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
);
void createAppRouter(prerendered).then((router) => {
  // As a transition, the first render (or the hydration of a prerendered page) yields to the browser every few
  // milliseconds instead of holding a slow phone's main thread in one long task; a plain render would not.
  if (prerendered) startTransition(() => void hydrateRoot(container, app(router)));
  else {
    const root = createRoot(container);
    startTransition(() => root.render(app(router)));
  }
});
