import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/axe.ts';
import { launchBrowser, useServer } from './support/browser.ts';
import { smallMovie } from './support/downloads.ts';
import { controlledByServiceWorker } from './support/service-worker.ts';
import {
  adminSession,
  createPlan,
  posterPng,
  registerUser,
  signInContext,
  subscribeUser,
  uniqueStamp,
  uploadMovie,
} from './support/seed.ts';
import { type BuiltServer, startBuiltServer } from './support/server.ts';

/**
 * The movie edit as an admin uses it, seen by a subscriber without clearing any cache (decisions 0166–0168), the
 * library's VJ search and typo tolerance, and the offline library.
 */

const PHONE = { width: 360, height: 780 };

let server: BuiltServer;
let browser: Browser;

beforeAll(async () => {
  server = await startBuiltServer();
  useServer(server);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  useServer(null);
  await server?.stop();
});

async function adminPage(theme: 'light' | 'dark', viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ baseURL: server.baseURL, viewport });
  await signInContext(context, await adminSession(), theme);
  const page = await context.newPage();
  await page.goto('/admin/movies');
  await page.getByRole('heading', { level: 1, name: 'Movies' }).waitFor();
  return { context, page };
}

async function subscriberPage(planId: string, keepSession = false): Promise<{ context: BrowserContext; page: Page }> {
  const user = await registerUser();
  await subscribeUser(user.id, planId);
  const context = await browser.newContext({ baseURL: server.baseURL, viewport: PHONE });
  if (keepSession) {
    // Signed in once: later loads keep the profile the app saved with the token, as a real phone does offline.
    await context.addInitScript(
      ({ token, deviceId }) => {
        if (localStorage.getItem('filamu.session')) return;
        localStorage.setItem('filamu.session', JSON.stringify({ token, kind: 'user' }));
        localStorage.setItem('filamu.deviceId', deviceId);
      },
      { token: user.token, deviceId: user.deviceId },
    );
  } else {
    await signInContext(context, user);
  }
  return { context, page: await context.newPage() };
}

describe('Movie edit', () => {
  it("changes a title and poster in the console; a subscriber's library shows them without clearing its cache", async () => {
    const plan = await createPlan();
    const stamp = uniqueStamp();
    const title = `Kampla Nigts ${stamp}`;
    const fixed = `Kampala Nights ${stamp}`;
    await uploadMovie(smallMovie(title), {
      title,
      category: 'Kinayuganda',
      vj: 'VJ Emmy',
      planIds: [plan.id],
      thumbnail: posterPng(title),
    });
    const subscriber = await subscriberPage(plan.id);
    const admin = await adminPage('light');
    try {
      await subscriber.page.goto('/movies');
      const oldCard = subscriber.page.getByTestId('movie-card').filter({ hasText: title });
      await oldCard.waitFor();
      const oldPoster = await oldCard.locator('img').getAttribute('src');

      const row = admin.page.getByRole('row').filter({ hasText: title });
      await row.getByRole('button', { name: `Edit ${title}` }).click();
      const dialog = admin.page.getByRole('dialog', { name: 'Edit movie' });
      await expect(dialog.getByLabel('Title').inputValue()).resolves.toBe(title);
      await expect(dialog.getByLabel('VJ/Uploader').inputValue()).resolves.toBe('VJ Emmy');
      await dialog.getByLabel('Title').fill('');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await dialog.getByText('Please fill out the movie title.').waitFor();
      await dialog.getByLabel('Title').fill(fixed);
      await dialog.getByLabel('Replace poster').setInputFiles({
        name: 'new.png',
        mimeType: 'image/png',
        buffer: posterPng(fixed, ['#1d4ed8', '#0c4a6e']),
      });
      await dialog.getByRole('img', { name: 'New poster' }).waitFor();
      await dialog.getByLabel('Category').selectOption('English');
      await dialog.getByText('It stops counting for Kinayuganda first').waitFor();
      await dialog.getByLabel('Category').selectOption('Kinayuganda');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await dialog.waitFor({ state: 'detached' });
      await admin.page.getByRole('row').filter({ hasText: fixed }).waitFor();

      // The subscriber's browser revalidates its cached list (If-None-Match) and gets the new one.
      await subscriber.page.reload();
      const card = subscriber.page.getByTestId('movie-card').filter({ hasText: fixed });
      await card.waitFor();
      await expect(subscriber.page.getByText(title).count()).resolves.toBe(0);
      const newPoster = await card.locator('img').getAttribute('src');
      expect(newPoster).not.toBe(oldPoster);
      expect(newPoster).toMatch(/\/files\/thumbnails\/[0-9a-f-]+\.png$/);
      await subscriber.page.waitForFunction(
        (src) => [...document.images].some((img) => img.src === src && img.complete && img.naturalWidth > 0),
        new URL(newPoster!, server.baseURL).href,
      );
    } finally {
      await admin.context.close();
      await subscriber.context.close();
    }
  });

  it('the edit dialog passes axe in light and dark at 360 px, with no sideways scroll', async () => {
    const plan = await createPlan();
    const title = `Axe Edit ${uniqueStamp()}`;
    await uploadMovie(smallMovie(title), { title, category: 'English', vj: 'VJ Junior', planIds: [plan.id] });
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await adminPage(theme, PHONE);
      try {
        await page.getByRole('button', { name: `Edit ${title}` }).click();
        const dialog = page.getByRole('dialog', { name: 'Edit movie' });
        await dialog.getByLabel('Category').selectOption('Kinayuganda');
        await dialog.getByText('Kinayuganda first:').waitFor();
        await expectAccessible(page, `Edit movie dialog (${theme}, 360 px)`);
        // The dialog fits the phone: nothing in it is wider than the screen.
        const overflow = await dialog.evaluate((panel) => {
          const wide = [...panel.querySelectorAll('*')].filter(
            (el) => el.getBoundingClientRect().right > window.innerWidth + 1,
          );
          return wide.map((el) => el.tagName + '.' + String(el.className).slice(0, 40));
        });
        expect(overflow).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});

describe('Library search and offline', () => {
  it('finds movies by VJ and with a typo, and narrows to a VJ from a movie page', async () => {
    const plan = await createPlan();
    const stamp = uniqueStamp();
    const vj = `VJ Zebra${stamp.replace(/\D/g, '').slice(-4)}`;
    await uploadMovie(smallMovie('a'), {
      title: `Kampala Express ${stamp}`,
      category: 'Kinayuganda',
      vj,
      planIds: [plan.id],
    });
    await uploadMovie(smallMovie('b'), {
      title: `Jungle Drums ${stamp}`,
      category: 'Kinayuganda',
      vj,
      planIds: [plan.id],
    });
    const { context, page } = await subscriberPage(plan.id);
    try {
      await page.goto('/movies');
      const search = page.getByRole('searchbox', { name: 'Search movies' });
      await search.fill(vj);
      await page
        .getByTestId('movie-card')
        .filter({ hasText: `Jungle Drums ${stamp}` })
        .waitFor();
      await page
        .getByTestId('movie-card')
        .filter({ hasText: `Kampala Express ${stamp}` })
        .waitFor();
      await search.fill(`kampla expres ${stamp}`);
      await page.waitForURL(/search=kampla/);
      await page
        .getByTestId('movie-card')
        .filter({ hasText: `Jungle Drums ${stamp}` })
        .waitFor({ state: 'detached' });
      await page
        .getByTestId('movie-card')
        .filter({ hasText: `Kampala Express ${stamp}` })
        .waitFor();

      await page.getByRole('link', { name: `Kampala Express ${stamp}` }).click();
      await page.getByRole('link', { name: `More movies by ${vj}` }).click();
      await page.getByText(`VJ: ${vj}`).waitFor();
      await page
        .getByTestId('movie-card')
        .filter({ hasText: `Jungle Drums ${stamp}` })
        .waitFor();
      await expect(page.getByTestId('movie-card').count()).resolves.toBe(2);
    } finally {
      await context.close();
    }
  });

  it('offline, /movies shows the last library it saw and says the movies are in My Downloads', async () => {
    const plan = await createPlan();
    const title = `Offline Copy ${uniqueStamp()}`;
    await uploadMovie(smallMovie(title), { title, category: 'Kinayuganda', planIds: [plan.id] });
    const { context, page } = await subscriberPage(plan.id, true);
    try {
      await page.goto('/movies');
      await page.getByTestId('movie-card').filter({ hasText: title }).waitFor();
      await controlledByServiceWorker(page);
      await page.getByTestId('movie-card').filter({ hasText: title }).waitFor();
      await context.setOffline(true);
      await page.reload();
      await page.getByText("You're offline — your movies are in My Downloads.").waitFor();
      await page.getByTestId('movie-card').filter({ hasText: title }).waitFor();
      await expect(page.locator('[aria-busy="true"]').count()).resolves.toBe(0);
      await page.getByRole('link', { name: 'Open My Downloads' }).waitFor();
    } finally {
      await context.setOffline(false);
      await context.close();
    }
  });
});
