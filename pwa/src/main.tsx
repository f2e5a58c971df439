import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { loadMeta } from './lib/meta.ts';
import { startServiceWorker } from './lib/pwa.ts';
import { startSessionBootstrap } from './lib/session.ts';
import { initTheme } from './lib/theme.ts';
import './index.css';

initTheme();
void loadMeta();
startSessionBootstrap();
startServiceWorker();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
