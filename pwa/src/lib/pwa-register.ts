import { Workbox } from 'workbox-window';
import { usePwaStore } from './pwa.ts';

/** Registers /sw.js and offers a reload when a new version is waiting. */
export async function registerServiceWorker(): Promise<void> {
  const wb = new Workbox('/sw.js', { scope: '/' });

  const offerUpdate = () => {
    usePwaStore.setState({
      updateAvailable: true,
      applyUpdate: () => {
        wb.addEventListener('controlling', () => window.location.reload());
        wb.messageSkipWaiting();
      },
    });
  };
  wb.addEventListener('waiting', offerUpdate);

  try {
    const registration = await wb.register();
    // Check for updates every hour while the app stays open.
    if (registration) window.setInterval(() => void registration.update(), 60 * 60 * 1000);
  } catch (error) {
    console.warn('Service worker registration failed', error);
  }
}
