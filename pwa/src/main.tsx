import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { loadMeta } from './lib/meta.ts';
import { startServiceWorker } from './lib/pwa.ts';
import { startSessionBootstrap, useSessionStore } from './lib/session.ts';
import { initTheme } from './lib/theme.ts';
import './index.css';

initTheme();
void loadMeta();
startSessionBootstrap();
startServiceWorker();
// Downloads pick up where they stopped as soon as the app opens, whatever the first screen.
if (useSessionStore.getState().token) {
  window.addEventListener(
    'load',
    () => void import('./features/downloads/autostart.ts').then((m) => m.ensureDownloadManager()),
    { once: true },
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
