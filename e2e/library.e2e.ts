import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser } from './support/browser.ts';
import {
  completeDownload,
  createPlan,
  mp4Bytes,
  posterPng,
  registerUser,
  signInContext,
  subscribeUser,
  uniqueStamp,
  uploadMovie,
  type SeededMovie,
  type SeededUser,
} from './support/seed.ts';
import { confirmSize } from './support/downloads.ts';
import { controlledByServiceWorker } from './support/service-worker.ts';

const KINAYUGANDA_FIRST = 'You must first download all Kinayuganda movies to unlock English downloads.';

let browser: Browser;
const stamp = uniqueStamp();
/** In the subscribers' plan: one Kinayuganda movie (21 MiB, so its size shows as 0.02 GB) and one English. */
let kinayuganda: SeededMovie;
let english: SeededMovie;
/** In another plan: "Not in your plan" for them. */
let elsewhere: SeededMovie;
let planId: string;
/** Subscribed, downloads nothing: for the screens that only read. */
let reader: SeededUser;

beforeAll(async () => {
  browser = await launchBrowser();
  const [plan, otherPlan] = await Promise.all([createPlan(), createPlan()]);
  planId = plan.id;
  kinayuganda = await uploadMovie(mp4Bytes(21 * 1024 * 1024), {
    title: `Kigambo ${stamp}`,
    category: 'Kinayuganda',
    vj: 'VJ Junior',
    description: 'A village story, translated live by VJ Junior.',
    planIds: [plan.id],
    thumbnail: posterPng('KIGAMBO'),
  });
  english = await uploadMovie(mp4Bytes(), {
    title: `Lion Heart ${stamp}`,
    category: 'English',
    vj: 'Filamu Studio',
    description: 'A lion grows up far from home.',
    planIds: [plan.id],
    thumbnail: posterPng('LION HEART', ['#0ea5e9', '#082f49']),
  });
  elsewhere = await uploadMovie(mp4Bytes(), {
    title: `Omusomesa ${stamp}`,
    category: 'Kinayuganda',
    planIds: [otherPlan.id],
  });
  reader = await registerUser();
  await subscribeUser(reader.id, plan.id);
});

afterAll(async () => {
  await browser?.close();
});

async function open(
  user: SeededUser,
  options: { theme?: 'light' | 'dark'; width?: number } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseURL(),
    viewport: { width: options.width ?? 390, height: 844 },
  });
  await signInContext(context, user, options.theme ?? 'light');
  return { context, page: await context.newPage() };
}

const card = (page: Page, title: string): Locator => page.getByTestId('movie-card').filter({ hasText: title });
const isLibraryRequest = (url: URL) => url.pathname === '/api/users/movies';

/** The library finished loading: both section headings (or the one asked for) and no skeletons. */
async function libraryLoaded(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Movie Library' }).waitFor();
  await page.locator('section h2').first().waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="movie-skeleton"]').length === 0);
}

/** The texts an element's aria-describedby points at. */
async function descriptionOf(locator: Locator): Promise<string> {
  return locator.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? '')
      .join(' '),
  );
}

async function expectNoHorizontalOverflow(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${label}: page is wider than the screen`).toBeLessThanOrEqual(innerWidth);
}

describe('Movie library', () => {
  it('shows eight skeleton cards while the library loads', async () => {
    const { context, page } = await open(reader);
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(isLibraryRequest, async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/movies');
      await page.getByTestId('movie-skeleton').first().waitFor();
      expect(await page.getByTestId('movie-skeleton').count()).toBe(8);
      expect(await page.locator('[aria-busy="true"]').count()).toBeGreaterThan(0);
      release();
      await libraryLoaded(page);
      expect(await page.getByTestId('movie-skeleton').count()).toBe(0);
      await page.getByRole('heading', { name: 'Kinayuganda Movies' }).waitFor();
      await page.getByRole('heading', { name: 'English Movies' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('narrows the list as you type (debounced) and keeps the search in the URL', async () => {
    const { context, page } = await open(reader);
    try {
      await page.goto('/movies');
      await libraryLoaded(page);
      const searches: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (isLibraryRequest(url) && url.searchParams.has('search')) searches.push(url.searchParams.get('search')!);
      });

      const query = `Kigambo ${stamp}`;
      const box = page.getByRole('searchbox', { name: 'Search movies' });
      await box.pressSequentially(query, { delay: 30 });
      await page
        .waitForURL((url) => url.searchParams.get('search') === query)
        .catch(async (error: unknown) => {
          throw new Error(`The box holds "${await box.inputValue()}" and sent ${JSON.stringify(searches)}`, {
            cause: error,
          });
        });
      await page.getByText('No English movies found.').waitFor();
      await card(page, kinayuganda.title).waitFor();
      expect(await page.getByTestId('movie-card').count()).toBe(1);
      // One request per pause in typing, not one per key. A busy machine delivers some keys late, and such a gap is a
      // pause too: a few requests, far from one per character.
      expect(searches.length).toBeGreaterThanOrEqual(1);
      expect(searches.length).toBeLessThanOrEqual(Math.floor(query.length / 4));
      expect(searches.at(-1)).toBe(query);

      // Reload keeps it.
      await page.reload();
      await libraryLoaded(page);
      expect(await box.inputValue()).toBe(query);
      await card(page, kinayuganda.title).waitFor();
      expect(await page.getByTestId('movie-card').count()).toBe(1);

      // So does going to a movie and back.
      await page.getByRole('link', { name: kinayuganda.title }).click();
      await page.getByRole('heading', { name: kinayuganda.title, level: 1 }).waitFor();
      await page.goBack();
      await libraryLoaded(page);
      expect(new URL(page.url()).searchParams.get('search')).toBe(query);
      expect(await box.inputValue()).toBe(query);

      // A search on the run's marker finds its three movies, in their sections.
      await box.fill(stamp);
      await card(page, english.title).waitFor();
      await card(page, elsewhere.title).waitFor();
      expect(await page.getByTestId('movie-card').count()).toBe(3);
      await page.getByRole('heading', { name: 'Kinayuganda Movies' }).waitFor();

      await box.fill(`nothing like this ${stamp}`);
      await page.getByText('No Kinayuganda movies found.').waitFor();
      await page.getByText('No English movies found.').waitFor();
    } finally {
      await context.close();
    }
  });

  it('revalidates on the next visit: the browser sends the ETag, the 304 carries no body, the same cards show', async () => {
    const { context, page } = await open(reader);
    try {
      const url = `/movies?search=${stamp}`;
      const first = page.waitForResponse((response) => isLibraryRequest(new URL(response.url())));
      await page.goto(url);
      expect((await (await first).request().sizes()).responseBodySize).toBeGreaterThan(0);
      await libraryLoaded(page);
      await card(page, english.title).waitFor();
      // A new visit: the page asks again; the browser adds If-None-Match itself (docs/decisions/0066).
      const answered = page.waitForResponse((response) => isLibraryRequest(new URL(response.url())));
      await page.goto(url);
      const response = await answered;
      expect((await response.request().allHeaders())['if-none-match']).toMatch(/^W\/"/);
      // The server answered 304: the page sees the stored 200, and no body crossed the network.
      expect(response.status()).toBe(200);
      expect((await response.request().sizes()).responseBodySize).toBe(0);
      await libraryLoaded(page);
      await card(page, english.title).waitFor();
      await card(page, kinayuganda.title).waitFor();
    } finally {
      await context.close();
    }
  });

  it('shows one section for ?category=english', async () => {
    const { context, page } = await open(reader);
    try {
      await page.goto(`/movies?category=english&search=${stamp}`);
      await libraryLoaded(page);
      await card(page, english.title).waitFor();
      expect(await page.getByRole('heading', { name: 'Kinayuganda Movies' }).count()).toBe(0);
      expect(await page.getByTestId('movie-card').count()).toBe(1);
      await page.getByRole('link', { name: 'Show all movies' }).click();
      await page.getByRole('heading', { name: 'Kinayuganda Movies' }).waitFor();
      expect(new URL(page.url()).searchParams.get('search')).toBe(stamp);
    } finally {
      await context.close();
    }
  });

  it('locks English until the Kinayuganda movies are downloaded, then unlocks it', async () => {
    const user = await registerUser();
    await subscribeUser(user.id, planId);
    const { context, page } = await open(user);
    try {
      await page.goto(`/movies?search=${stamp}`);
      await libraryLoaded(page);

      const locked = card(page, english.title).getByRole('button', { name: 'Download Locked' });
      await locked.waitFor();
      expect(await locked.getAttribute('aria-disabled')).toBe('true');
      expect(await descriptionOf(locked)).toContain(KINAYUGANDA_FIRST);
      const notice = page.getByTestId('english-locked');
      await notice.getByText(KINAYUGANDA_FIRST).waitFor();
      await notice.getByText('0 of 1 Kinayuganda movies downloaded').waitFor();
      expect(await notice.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0');

      await card(page, kinayuganda.title).getByRole('button', { name: 'Download Now' }).waitFor();
      // A movie of another plan.
      const other = card(page, elsewhere.title);
      expect(await other.getByRole('button', { name: 'Not in your plan' }).getAttribute('aria-disabled')).toBe('true');
      expect(await other.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/subscription');

      await completeDownload(user, kinayuganda);
      await page.reload();
      await libraryLoaded(page);
      await card(page, english.title).getByRole('button', { name: 'Download Now' }).waitFor();
      // Downloaded on no phone of this browser: never "Downloaded", but Not on this phone with Download again.
      await card(page, kinayuganda.title).getByText('Not on this phone').waitFor();
      await card(page, kinayuganda.title).getByRole('button', { name: 'Download again' }).waitFor();
      expect(await page.getByTestId('english-locked').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('Download Now asks the server first (Checking...), then shows the download', async () => {
    const user = await registerUser();
    await subscribeUser(user.id, planId);
    const { context, page } = await open(user);
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        (url) => url.pathname === '/api/users/movies/generate-download-url',
        async (route) => {
          await held;
          await route.continue();
        },
      );
      await page.goto(`/movies?search=${encodeURIComponent(kinayuganda.title)}`);
      await libraryLoaded(page);
      const movie = card(page, kinayuganda.title);
      await movie.getByRole('button', { name: 'Download Now' }).click();
      await confirmSize(page);
      await movie.getByRole('button', { name: 'Checking...' }).waitFor();
      release();
      // The engine takes it from here: in progress ("Downloading... n%" with Pause), or done on a fast link (Play). A
      // small film may finish between any two looks, so each look accepts either.
      const play = movie.getByRole('link', { name: 'Play' });
      await movie
        .getByText(/Downloading\.\.\. \d+%/)
        .or(play)
        .first()
        .waitFor();
      await movie.getByRole('button', { name: 'Pause' }).or(play).first().waitFor();
      await play.waitFor({ timeout: 60_000 });
      expect(await play.getAttribute('href')).toBe(`/downloads/${kinayuganda.id}/play`);
    } finally {
      await context.close();
    }
  });

  it('offers Subscribe Now to people without a subscription', async () => {
    const user = await registerUser();
    const { context, page } = await open(user);
    try {
      await page.goto(`/movies?search=${stamp}`);
      await libraryLoaded(page);
      const subscribe = card(page, kinayuganda.title).getByRole('link', { name: 'Subscribe Now' });
      expect(await subscribe.getAttribute('href')).toBe('/subscription');
      expect(await page.getByRole('button', { name: 'Download Now' }).count()).toBe(0);
      expect(await page.getByTestId('english-locked').count()).toBe(0);

      await page.goto(`/movies/${kinayuganda.id}`);
      await page.getByRole('heading', { name: 'Subscribe to download' }).waitFor();
      await page.getByRole('link', { name: 'Subscribe Now' }).click();
      await page.waitForURL('**/subscription');
    } finally {
      await context.close();
    }
  });

  it('falls back to a placeholder when a thumbnail does not load', async () => {
    const { context, page } = await open(reader);
    try {
      // The small posters made of the thumbnail (decision 0143) fail alike.
      await page.route(
        (url) => url.pathname.includes('thumbnails/') || url.pathname.includes('posters/'),
        (route) => route.abort(),
      );
      await page.goto(`/movies?search=${stamp}`);
      await libraryLoaded(page);
      // Broken (Kigambo has one) and missing (Omusomesa has none) alike.
      await card(page, kinayuganda.title).getByText('Thumbnail not available').waitFor();
      await card(page, elsewhere.title).getByText('Thumbnail not available').waitFor();
    } finally {
      await context.close();
    }
  });

  it('loads more of one section without growing the other', { timeout: 120_000 }, async () => {
    // 25 of each category: one more than a page.
    const batch = uniqueStamp();
    const plan = await createPlan();
    const specs = (['Kinayuganda', 'English'] as const).flatMap((category) =>
      Array.from({ length: 25 }, (_, index) => ({ category, title: `Batch ${batch} ${category} ${index + 1}` })),
    );
    for (let start = 0; start < specs.length; start += 5) {
      await Promise.all(
        specs
          .slice(start, start + 5)
          .map(({ category, title }) =>
            uploadMovie(mp4Bytes(), { title, category, vj: 'VJ Batch', planIds: [plan.id] }),
          ),
      );
    }

    const { context, page } = await open(reader);
    try {
      await page.goto(`/movies?search=Batch ${batch}`);
      await libraryLoaded(page);
      const kinayugandaSection = page.locator('section', {
        has: page.getByRole('heading', { name: 'Kinayuganda Movies' }),
      });
      const englishSection = page.locator('section', { has: page.getByRole('heading', { name: 'English Movies' }) });
      const cardsIn = (section: Locator) => section.getByTestId('movie-card').count();
      expect(await cardsIn(kinayugandaSection)).toBe(24);
      expect(await cardsIn(englishSection)).toBe(24);
      expect(await kinayugandaSection.getByText('25 movies', { exact: true }).count()).toBe(1);

      await kinayugandaSection.getByRole('button', { name: 'Load more' }).click();
      await kinayugandaSection.getByTestId('movie-card').nth(24).waitFor();
      expect(await cardsIn(kinayugandaSection)).toBe(25);
      expect(await kinayugandaSection.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      expect(await cardsIn(englishSection)).toBe(24);

      await englishSection.getByRole('button', { name: 'Load more' }).click();
      await englishSection.getByTestId('movie-card').nth(24).waitFor();
      expect(await cardsIn(englishSection)).toBe(25);
      expect(await englishSection.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      expect(await cardsIn(kinayugandaSection)).toBe(25);
    } finally {
      await context.close();
    }
  });

  it('opened offline from cold, shows the library saved at the last visit with one offline message and no download to tap', async () => {
    const { context, page } = await open(reader);
    try {
      // This file's movies only: the shared server's library is longer than a page.
      const mine = `/movies?search=${encodeURIComponent(stamp)}`;
      await page.goto(mine);
      await libraryLoaded(page);
      await card(page, kinayuganda.title).waitFor();
      await controlledByServiceWorker(page);
      await page.close();

      await context.setOffline(true);
      const cold = await context.newPage();
      await cold.goto(mine);
      await cold.getByTestId('library-offline').waitFor();
      await card(cold, kinayuganda.title).waitFor();
      await cold.getByText('This is the library as it was when you were last online.').waitFor();
      // One offline message: no error panel, no second banner, and no Download Now that cannot work offline.
      expect(await cold.getByText(/Failed to load movies/).count()).toBe(0);
      expect(await cold.getByText('You are offline. Some features are unavailable until you reconnect.').count()).toBe(
        0,
      );
      expect(await cold.getByRole('button', { name: 'Download Now' }).count()).toBe(0);
      await card(cold, kinayuganda.title).getByRole('button', { name: 'Download when online' }).waitFor();
      await expectAccessible(cold, 'library opened offline');
    } finally {
      await context.close();
    }
  });

  it('fits a 390 px and a 360 px wide phone without sideways scrolling', async () => {
    for (const width of [390, 360]) {
      const { context, page } = await open(reader, { width });
      try {
        await page.goto(`/movies?search=${stamp}`);
        await libraryLoaded(page);
        await card(page, english.title).waitFor();
        await expectNoHorizontalOverflow(page, `/movies at ${width} px`);
        await page.goto(`/movies/${kinayuganda.id}`);
        await page.getByRole('heading', { name: kinayuganda.title, level: 1 }).waitFor();
        await expectNoHorizontalOverflow(page, `/movies/:id at ${width} px`);
      } finally {
        await context.close();
      }
    }
  });
});

describe('Movie detail', () => {
  it('shows the movie with its size in GB, VJ, date, download estimate and free space', async () => {
    const { context, page } = await open(reader);
    try {
      await page.goto(`/movies/${kinayuganda.id}`);
      await page.getByRole('heading', { name: kinayuganda.title, level: 1 }).waitFor();
      const main = page.locator('main');
      await main.getByText('0.02 GB', { exact: true }).waitFor();
      await main.getByText('VJ Junior', { exact: true }).waitFor();
      await main.getByText('Kinayuganda', { exact: true }).waitFor();
      await main.getByText('A village story, translated live by VJ Junior.').waitFor();
      expect(await main.getByText(/^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}$/).count()).toBe(1);
      await main.getByRole('button', { name: 'Download Now' }).waitFor();
      await main.getByText('Estimated download time').waitFor();
      await main.getByText('Estimated at 0.5 MB/s, a typical 3G connection', { exact: false }).waitFor();
      await main.getByText('Free space on this phone').waitFor();
      expect(await page.getByTestId('space-warning').count()).toBe(0);
      expect(await main.locator('img').getAttribute('src')).toContain('thumbnails/');

      expect(await main.locator('dt', { hasText: 'Translated by' }).count()).toBe(1);

      // An English film is not narrated: its name field says who it is from.
      await page.goto(`/movies/${english.id}`);
      await page.getByRole('heading', { name: english.title, level: 1 }).waitFor();
      await main.locator('dt', { hasText: /^From$/ }).waitFor();
      expect(await main.locator('dt', { hasText: 'Translated by' }).count()).toBe(0);

      await page.getByRole('link', { name: 'Back to Movies' }).click();
      await page.waitForURL((url) => url.pathname === '/movies');
    } finally {
      await context.close();
    }
  });

  it('warns when the movie does not fit in the space left', async () => {
    const { context, page } = await open(reader);
    try {
      await context.addInitScript(() => {
        Object.defineProperty(StorageManager.prototype, 'estimate', {
          value: async () => ({ usage: 1024 * 1024, quota: 6 * 1024 * 1024 }),
        });
      });
      await page.goto(`/movies/${kinayuganda.id}`);
      const warning = page.getByTestId('space-warning');
      await warning.waitFor();
      expect(await warning.textContent()).toContain('Not enough space.');
      await page.locator('main').getByText('0.00 GB', { exact: true }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('says Movie Not Found for an unknown movie, with a way back', async () => {
    const { context, page } = await open(reader);
    try {
      for (const id of [randomUUID(), 'not-a-movie']) {
        await page.goto(`/movies/${id}`);
        await page.getByRole('heading', { name: 'Movie Not Found' }).waitFor();
      }
      await page.getByRole('link', { name: 'Back to Movies' }).click();
      await page.getByRole('heading', { name: 'Movie Library' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('says Failed to load movie details. when the server fails', async () => {
    const { context, page } = await open(reader);
    try {
      await page.route(
        (url) => url.pathname === `/api/users/movies/${english.id}`,
        (route) =>
          route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'unavailable', message: 'Down for a moment', requestId: 'x' } }),
          }),
      );
      await page.goto(`/movies/${english.id}`);
      await page.getByText('Failed to load movie details.').waitFor({ timeout: 30_000 });
      await page.unrouteAll();
      await page.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('heading', { name: english.title, level: 1 }).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('Accessibility of the library screens', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`has no serious or critical axe violations in the ${theme} theme`, async () => {
      const { context, page } = await open(reader, { theme });
      try {
        await page.goto(`/movies?search=${stamp}`);
        await libraryLoaded(page);
        await card(page, english.title).getByRole('button', { name: 'Download Locked' }).waitFor();
        await page.getByTestId('english-locked').getByRole('progressbar').waitFor();
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        await expectAccessible(page, `/movies (${theme})`);

        await page.goto(`/movies/${kinayuganda.id}`);
        await page.getByRole('heading', { name: kinayuganda.title, level: 1 }).waitFor();
        await page.locator('main img').evaluate((img: HTMLImageElement) => img.decode().catch(() => undefined));
        await expectAccessible(page, `/movies/:id (${theme})`);

        await page.goto(`/movies/${english.id}`);
        await page.getByRole('button', { name: 'Download Locked' }).waitFor();
        await expectAccessible(page, `/movies/:id locked (${theme})`);
      } finally {
        await context.close();
      }
    });
  }
});
