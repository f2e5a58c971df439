import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser } from './support/browser.ts';
import {
  createPlan,
  mp4Bytes,
  posterPng,
  registerUser,
  signInContext,
  subscribeUser,
  uniqueStamp,
  uploadMovie,
  type SeededMovie,
} from './support/seed.ts';
import { controlledByServiceWorker } from './support/service-worker.ts';

/**
 * The public preview (docs/decisions/0215): a guest goes from the landing to the movies and prices without an
 * account, with or without JavaScript, and on to registration; a subscriber's /movies stays the app's library.
 */
let browser: Browser;
let movie: SeededMovie;
let grownUp: SeededMovie;
let planId: string;
const stamp = uniqueStamp();
const planName = `Preview ${stamp}`;

beforeAll(async () => {
  browser = await launchBrowser();
  // Seeded before the first request for /browse: the server renders the page at most once a minute.
  const plan = await createPlan({ plan_name: planName, price_ugx: 12_500 });
  planId = plan.id;
  movie = await uploadMovie(mp4Bytes(), {
    title: `Preview Movie ${stamp}`,
    category: 'Kinayuganda',
    vj: 'VJ Preview',
    planIds: [plan.id],
    thumbnail: posterPng(`Preview ${stamp}`),
  });
  grownUp = await uploadMovie(mp4Bytes(), {
    title: `Grown-up ${stamp}`,
    category: 'English',
    vj: 'VJ Preview',
    rating: '18',
    planIds: [plan.id],
  });
});

afterAll(async () => {
  await browser?.close();
});

async function withContext<T>(
  options: { javaScriptEnabled?: boolean; colorScheme?: 'light' | 'dark'; width?: number },
  run: (context: BrowserContext) => Promise<T>,
): Promise<T> {
  const { width = 390, ...rest } = options;
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width, height: 800 }, ...rest });
  try {
    return await run(context);
  } finally {
    await context.close();
  }
}

/** The movie's card: its poster loaded (it is lazy, so scrolled to first), its facts and its plan. */
async function expectMovieCard(page: Page) {
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: movie.title }) });
  await card.scrollIntoViewIfNeeded();
  await card.getByText('VJ Preview').waitFor();
  await card.getByText(`In ${planName}`).waitFor();
  const poster = card.locator('img');
  await expect.poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(await poster.getAttribute('width')).toBe('160');
  expect(await poster.getAttribute('height')).toBe('90');
}

describe('the public preview', () => {
  it('takes a guest from the landing to the movies and prices, and on to registration', async () => {
    await withContext({}, async (context) => {
      const page = await context.newPage();
      await page.goto('/');
      await page.getByRole('link', { name: 'See the movies and prices' }).click();
      await page.getByRole('heading', { name: 'Movies and prices', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/browse');
      expect(await page.title()).toBe('Movies and prices · Filamu');

      const plan = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: planName }) });
      await plan.getByText('UGX 12,500').waitFor();
      await expectMovieCard(page);
      // 18+ titles are not on the public page.
      expect(await page.getByText(grownUp.title).count()).toBe(0);
      // No sideways scroll on a 390 px phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

      await page.getByRole('main').getByRole('link', { name: 'Create an account' }).first().click();
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/register');
    });
  });

  it('works without JavaScript, at 360 px, in dark mode, and is accessible', async () => {
    await withContext({ javaScriptEnabled: false, colorScheme: 'dark', width: 360 }, async (context) => {
      const page = await context.newPage();
      await page.goto('/browse');
      await page.getByRole('heading', { name: 'Movies and prices', level: 1 }).waitFor();
      await expectMovieCard(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe('rgb(12, 10, 9)');
      await page.getByRole('link', { name: 'Sign in' }).first().click();
      await page.waitForURL('**/login');
    });
    for (const colorScheme of ['light', 'dark'] as const) {
      await withContext({ colorScheme, width: 360 }, async (context) => {
        const page = await context.newPage();
        await page.goto('/browse');
        await page.getByRole('heading', { name: 'Movies and prices', level: 1 }).waitFor();
        await expectAccessible(page, `/browse (${colorScheme})`);
      });
    }
  });

  it("leaves a subscriber's /movies to the app, and still loads /browse from the server under the service worker", async () => {
    const subscriber = await registerUser();
    await subscribeUser(subscriber.id, planId);
    await withContext({}, async (context) => {
      await signInContext(context, subscriber);
      const page = await context.newPage();
      await page.goto('/movies');
      await page.getByRole('heading', { name: 'Movie Library' }).waitFor();
      await controlledByServiceWorker(page);
      await page.getByRole('heading', { name: 'Movie Library' }).waitFor();

      await page.goto('/browse');
      await page.getByRole('heading', { name: 'Movies and prices', level: 1 }).waitFor();
      await page.goto('/movies');
      await page.getByRole('heading', { name: 'Movie Library' }).waitFor();
      await page.getByRole('heading', { name: movie.title }).waitFor();
    });
  });
});
