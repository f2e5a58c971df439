/**
 * Registers the service worker once the page has loaded and the main thread is idle: installing it downloads the
 * whole app for offline use, which must not compete with the first screen on a slow link (docs/decisions/0078).
 * `pwa-register.ts` (and workbox-window with it) is fetched only then.
 */
export function startServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => void import('./pwa-register.ts').then((m) => m.registerServiceWorker());
  const whenIdle = () =>
    'requestIdleCallback' in window ? requestIdleCallback(register, { timeout: 5000 }) : setTimeout(register, 2000);
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
