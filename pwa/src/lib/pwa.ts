import { create } from 'zustand';

/** Service-worker update state; registration itself lives in `pwa-register.ts` (loaded after first paint). */
interface PwaState {
  updateAvailable: boolean;
  applyUpdate: (() => void) | null;
}

export const usePwaStore = create<PwaState>()(() => ({ updateAvailable: false, applyUpdate: null }));

export function startServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const run = () => void import('./pwa-register.ts').then((m) => m.registerServiceWorker());
  if (document.readyState === 'complete') run();
  else window.addEventListener('load', run, { once: true });
}
