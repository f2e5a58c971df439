import type { BrowserContext, CDPSession, Page, Worker } from 'playwright-core';
import { expect } from 'vitest';
import { controlledByServiceWorker } from './service-worker.ts';

/**
 * Web Push in Chromium without a push service: a push is handed to the service worker through the DevTools protocol
 * (ServiceWorker.deliverPushMessage) and a tap is a notificationclick event dispatched in the worker with the
 * notification it showed, so the worker's own handlers run as they would on a phone.
 */
/** The parts of the worker's global scope these checks use (e2e compiles without the WebWorker library). */
interface WorkerScope {
  registration: {
    getNotifications(filter?: { tag: string }): Promise<{ title: string; body: string; tag: string; data: unknown }[]>;
  };
  dispatchEvent(event: Event): boolean;
}
declare const NotificationEvent: new (type: string, init: { notification: unknown }) => Event;

/** The worker controlling the page, and its registration's id as DevTools knows it. */
export async function serviceWorker(
  context: BrowserContext,
  page: Page,
): Promise<{ worker: Worker; cdp: CDPSession; id: string }> {
  await controlledByServiceWorker(page);
  const origin = new URL(page.url()).origin;
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const cdp = await context.newCDPSession(page);
  const registration = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return { worker, cdp, id: await registration };
}

export const shown = (worker: Worker) =>
  worker.evaluate(async () => {
    const sw = self as unknown as WorkerScope;
    return (await sw.registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      url: (n.data as { url?: string } | null)?.url,
    }));
  });

/** What a tap on the notification with this tag runs: the worker's notificationclick handler. */
export const tap = (worker: Worker, tag: string) =>
  worker.evaluate(async (tag) => {
    const sw = self as unknown as WorkerScope;
    const [notification] = await sw.registration.getNotifications({ tag });
    if (!notification) throw new Error(`no notification tagged ${tag}`);
    sw.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
  }, tag);

/**
 * Delivers a push through DevTools until the worker shows its notification, at most three times. DevTools answers
 * before the worker has run the push and never says whether it did; twice on CI a push delivered just after a tap's
 * navigation showed nothing for 10 s, while alone it never failed. A push service delivers again an unacknowledged
 * push; this does the same. The notifications carry a tag, so a push run twice still shows one notification.
 */
export async function pushUntilShown(
  cdp: CDPSession,
  registrationId: string,
  worker: Worker,
  payload: { title: string },
) {
  for (let attempt = 1; ; attempt++) {
    const origin = new URL(worker.url()).origin;
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(payload) });
    try {
      await expect
        .poll(async () => (await shown(worker)).map((n) => n.title), { timeout: 5_000 })
        .toContain(payload.title);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
