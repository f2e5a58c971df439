import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UssdDialResponse } from '../shared/src/schemas/unlock.ts';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { launchBrowser, login, useServer } from './support/browser.ts';
import { isComplete, licenceOnPhone, subscriberPage, waitForRecord } from './support/downloads.ts';
import { keepCopy, openFilmFile } from './support/film-files.ts';
import { addMovie } from './support/encrypted-films.ts';
import { FaultProxy } from './support/fault-proxy.ts';
import { createPlan, registerUser, subscribeUser } from './support/seed.ts';
import { type BuiltServer, startBuiltServer } from './support/server.ts';
import { controlledByServiceWorker } from './support/service-worker.ts';
import { confirmPhone } from './support/sms.ts';

/**
 * A film unlocked with no data at all (issue 19/22 §3, decision 0249), in Chromium: a friend's phone, online once, has
 * fetched its sealed keys; offline, it opens a film file, shows the film's request code; the friend dials Filamu's USSD
 * service (the simulator, from the friend's proven number), types the code, gets 20 digits back, types them on the
 * phone, and the film plays with no data. A wrong digit is refused in words.
 */
let server: BuiltServer;
let browser: Browser;
let proxy: FaultProxy;
let origin: string;
let planId: string;

beforeAll(async () => {
  // As encrypted-films.ts starts it, with the USSD simulator on (a production build turns it off otherwise).
  server = await startBuiltServer(undefined, {
    FFMPEG_PATH: 'ffmpeg',
    FFPROBE_PATH: 'ffprobe',
    ALLOW_USSD_SIMULATOR: 'true',
  });
  useServer(server);
  browser = await launchBrowser();
  proxy = new FaultProxy({ upstream: server.baseURL, match: (path) => path.startsWith('/files/renditions/') });
  origin = await proxy.listen();
  ({ id: planId } = await createPlan({ global_expiry_date: '2030-12-31T23:59' }));
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  useServer(null);
  await server?.stop();
});

async function phoneOf(user: { email: string; password: string }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  await login(page, user.email, user.password);
  await page.waitForURL(/\/(dashboard|subscription)$/);
  await page.goto('/downloads');
  await page.getByRole('heading', { name: 'Got a film from a friend?' }).waitFor();
  return { context, page };
}

/** The short number of the newest film whose sealed key this phone keeps, once the background fetch has run. */
async function sealedFilmsOnPhone(page: Page, movieId: string): Promise<number | null> {
  return page.evaluate(async (movieId) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('filamu-sealed-keys');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      if (!db.objectStoreNames.contains('films')) return null;
      const films = await new Promise<{ movieId: string; shortNumber: number }[]>((resolve, reject) => {
        const request = db.transaction('films').objectStore('films').getAll();
        request.onsuccess = () => resolve(request.result as { movieId: string; shortNumber: number }[]);
        request.onerror = () => reject(request.error);
      });
      return films.find((film) => film.movieId === movieId)?.shortNumber ?? null;
    } finally {
      db.close();
    }
  }, movieId);
}

describe('A film unlocked by USSD with no data', () => {
  it('shows the request code offline, takes the code the USSD service gives, refuses a wrong one, and plays', async () => {
    const title = `Dialled In ${Date.now().toString(36)}`;
    const movie = await addMovie(planId, title);
    const { context: senderPhone, page: sender } = await subscriberPage(browser, origin, planId);
    const friend = await registerUser();
    await subscribeUser(friend.id, planId);
    await confirmPhone(friend);
    const folder = mkdtempSync(join(tmpdir(), 'filamu-ussd-'));
    let friendPhone: BrowserContext | null = null;
    try {
      await sender.goto(`/movies/${movie.id}`);
      await sender.getByRole('button', { name: 'Download Now' }).click();
      const dialog = sender.getByRole('dialog', { name: `Download ${title}` });
      await dialog.getByRole('radio', { name: /^Original · / }).check();
      await dialog.getByRole('button', { name: 'Download Original' }).click();
      await waitForRecord(sender, movie.id, (r) => isComplete(r) && typeof r.manifest === 'string');
      const { path } = await keepCopy(sender, title, folder);

      // The friend's phone is online once, signed in: its sealed keys arrive in the background.
      const opened = await phoneOf(friend);
      friendPhone = opened.context;
      const { page } = opened;
      // The app is kept on the phone (the service worker holds every screen), as on a phone used before.
      await controlledByServiceWorker(page);
      await page.getByRole('heading', { name: 'Got a film from a friend?' }).waitFor();
      const deadline = Date.now() + 30_000;
      let shortNumber: number | null = null;
      while (shortNumber === null && Date.now() < deadline) {
        shortNumber = await sealedFilmsOnPhone(page, movie.id);
        if (shortNumber === null) await page.waitForTimeout(250);
      }
      expect(shortNumber).toBeGreaterThanOrEqual(1000);

      // No data at all: the film is kept and waits, with a way to unlock it by USSD.
      await friendPhone.setOffline(true);
      await openFilmFile(page, path);
      await page.getByText(`${title} is on this phone. 0 MB of data used for the film.`).waitFor();
      await page.getByText('It plays once this phone is online and signed in').waitFor();
      expect(await licenceOnPhone(page, movie.id)).toBeNull();
      // Offered on the outcome and on the film's row: the row's is used here.
      await expect.poll(() => page.getByRole('button', { name: 'No data? Unlock with USSD' }).count()).toBe(2);
      const row = page.getByRole('article', { name: title });
      await row.getByRole('button', { name: 'No data? Unlock with USSD' }).click();
      const requestCode = (await row.getByTestId('request-code').textContent())!;
      expect(requestCode).toMatch(new RegExp(`^${shortNumber}-\\d{3}-\\d$`));
      await row.getByText('*384*3456#').waitFor();
      await expectAccessible(page, 'USSD unlock: request code');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

      // The friend dials from their proven number and types the code.
      const dial = await apiCall<UssdDialResponse>('/sandbox/ussd/dial', {
        method: 'POST',
        body: { phoneNumber: `+256${friend.phone.slice(1)}`, inputs: ['1', requestCode] },
      });
      const last = dial.screens.at(-1)!;
      expect(last.kind).toBe('END');
      const unlockCode = /(\d{4} \d{4} \d{4} \d{4} \d{4})/.exec(last.text)?.[1];
      expect(unlockCode, last.text).toBeDefined();

      // One digit wrong is refused in words; the right code unlocks it.
      const field = row.getByLabel(`Unlock code for ${title}`);
      const wrongLast = `${unlockCode!.slice(0, -1)}${(Number(unlockCode!.at(-1)) + 1) % 10}`;
      await field.fill(wrongLast);
      await row.getByRole('button', { name: 'Unlock', exact: true }).click();
      await row
        .getByText('This unlock code is not right for this film on this phone. Check the digits from the USSD message.')
        .waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page, 'USSD unlock: wrong code');
      await field.fill(unlockCode!);
      await row.getByRole('button', { name: 'Unlock', exact: true }).click();
      await row.getByText(`Unlocked. ${title} plays on this phone now.`).waitFor();

      // It plays with no data.
      await row.getByRole('link', { name: `Play ${title}` }).click();
      await page.waitForURL(`**/downloads/${movie.id}/play`);
      const video = page.locator('video');
      await video.waitFor();
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3, undefined, {
        timeout: 30_000,
      });
      expect(await video.evaluate((v: HTMLVideoElement) => v.error?.code ?? null)).toBeNull();
      expect(await licenceOnPhone(page, movie.id)).toBeNull();

      // Back online, the Play screen fetches the licence the USSD service issued for this phone: it takes over.
      await friendPhone.setOffline(false);
      await page.reload();
      await page.locator('video').waitFor();
      await expect
        .poll(() => licenceOnPhone(page, movie.id), { timeout: 20_000 })
        .toMatchObject({ way: 'transfer', opens: true });
    } finally {
      await friendPhone?.close();
      await senderPhone.close();
    }
  }, 240_000);
});
