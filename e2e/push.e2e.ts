import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, launchBrowser } from './support/browser.ts';
import { isComplete, signInSubscriber, smallMovie, tapDownload, waitForRecord } from './support/downloads.ts';
import { pushUntilShown, serviceWorker, shown, tap } from './support/push.ts';
import { controlledByServiceWorker } from './support/service-worker.ts';
import { createPlan, uploadMovie } from './support/seed.ts';

/**
 * Web Push in Chromium. No public push service is reachable here, so a push is handed to the service worker through
 * the DevTools protocol (ServiceWorker.deliverPushMessage): the worker's own push handler runs on it as it would on a
 * push from FCM. Chromium's DevTools cannot click a notification, so the tap is a notificationclick event dispatched
 * in the worker with the notification the worker showed: the handler's screen choice and navigation run for real.
 */
let browser: Browser;
let planId: string;
let origin: string;

beforeAll(async () => {
  browser = await launchBrowser();
  origin = new URL(baseURL()).origin;
  planId = (await createPlan()).id;
});

afterAll(async () => {
  await browser?.close();
});

async function phone(grant: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width: 390, height: 844 } });
  if (grant) await context.grantPermissions(['notifications'], { origin });
  const page = await context.newPage();
  await signInSubscriber(page, planId);
  return { context, page };
}

describe('push notifications', () => {
  it('shows a pushed notification and a tap opens the screen it names', async () => {
    const { context, page } = await phone(true);
    try {
      const { worker, cdp, id } = await serviceWorker(context, page);
      const planEnds = {
        kind: 'plan_ends_in_3_days',
        title: 'Your Filamu plan ends in 3 days',
        body: 'Monthly: access until 31 Dec 2026. Renew to keep downloading.',
        url: '/subscription',
        tag: 'plan_ends',
      };
      await pushUntilShown(cdp, id, worker, planEnds);
      await expect
        .poll(() => shown(worker))
        .toEqual([{ title: planEnds.title, body: planEnds.body, tag: 'plan_ends', url: '/subscription' }]);
      await tap(worker, 'plan_ends');
      await page.waitForURL(`${origin}/subscription`);
      await expect.poll(() => shown(worker)).toEqual([]);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await controlledByServiceWorker(page);

      const movies = {
        kind: 'new_movies',
        title: '2 new Kinayuganda movies',
        body: 'Download it on Filamu while you have Wi-Fi or data.',
        url: '/movies?category=Kinayuganda',
        tag: 'new_movies',
      };
      await pushUntilShown(cdp, id, worker, movies);
      await expect.poll(async () => (await shown(worker)).map((n) => n.title)).toEqual([movies.title]);
      await tap(worker, 'new_movies');
      await page.waitForURL(`${origin}/movies?category=Kinayuganda`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();

      // A payment confirmed while Filamu is on screen: the page says it; no notification on top.
      const paid = { kind: 'payment_confirmed', title: 'Payment received', body: 'x', url: '/dashboard', tag: 'p' };
      await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data: JSON.stringify(paid) });
      await pushUntilShown(cdp, id, worker, movies);
      await expect.poll(async () => (await shown(worker)).map((n) => n.title)).toEqual([movies.title]);
    } finally {
      await context.close();
    }
  });

  it('offers notifications only after a first finished download, never on the first visit; Not now is kept', async () => {
    const { id } = await uploadMovie(smallMovie('Push offer'), {
      title: `Push offer ${Date.now().toString(36)}`,
      category: 'Kinayuganda',
      planIds: [planId],
    });
    const { context, page } = await phone(false);
    const offer = page.getByRole('region', { name: 'Get notifications from Filamu?' });
    try {
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.goto('/movies');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await offer.count()).toBe(0);

      await tapDownload(page, id);
      await waitForRecord(page, id, isComplete);
      // Never over the movie's page, where Play has just appeared; in the flow of the dashboard and My Downloads.
      await page.getByRole('link', { name: /^Play/ }).waitFor();
      expect(await offer.count()).toBe(0);
      await page.goto('/dashboard');
      await offer.waitFor();
      await page.goto('/downloads');
      await offer.waitFor();
      // With the offer on screen, Play is still the thing under the finger (a covered button fails Playwright's click).
      await page.getByRole('link', { name: /^Play/ }).click();
      await page.waitForURL(`**/downloads/${id}/play`);
      await page.goto('/downloads');
      await offer.getByRole('button', { name: 'Not now' }).click();
      await offer.waitFor({ state: 'detached' });
      await page.reload();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await offer.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('Turn on asks the browser only on the tap, and says so when the browser cannot subscribe', async () => {
    const { id } = await uploadMovie(smallMovie('Push allow'), {
      title: `Push allow ${Date.now().toString(36)}`,
      category: 'Kinayuganda',
      planIds: [planId],
    });
    const { context, page } = await phone(false);
    const offer = page.getByRole('region', { name: 'Get notifications from Filamu?' });
    try {
      await tapDownload(page, id);
      await waitForRecord(page, id, isComplete);
      await page.goto('/dashboard');
      await offer.waitFor();
      expect(await page.evaluate(() => Notification.permission)).toBe('default');
      // The person allows it in the browser's prompt: Playwright grants it with DevTools' Browser.grantPermissions
      // for this browser context (a raw CDP call would need the context's id, which Playwright does not expose).
      await context.grantPermissions(['notifications'], { origin });
      await offer.getByRole('button', { name: 'Turn on' }).click();
      await expect.poll(() => page.evaluate(() => Notification.permission)).toBe('granted');
      // This Chromium reaches no push service, so PushManager.subscribe fails after the permission: the offer says so
      // instead of pretending, and nothing was kept for this browser.
      await offer.getByRole('alert').getByText('Notifications could not be turned on in this browser.').waitFor();
      expect(
        await page.evaluate(async () => (await navigator.serviceWorker.ready).pushManager.getSubscription()),
      ).toBeNull();
    } finally {
      await context.close();
    }
  });
});
