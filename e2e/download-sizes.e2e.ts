import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '../shared/src/format.ts';
import {
  DATA_COST_FLOOR_UGX,
  dataCostUgx,
  DEFAULT_DATA_PRICE_PER_GB_UGX,
  type MovieSize,
} from '../shared/src/schemas/renditions.ts';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { launchBrowser, newContext, useServer } from './support/browser.ts';
import {
  browserSession,
  isComplete,
  opfsSha256,
  sha256,
  signInSubscriber,
  waitForRecord,
} from './support/downloads.ts';
import { addMovie, waitForRevoked } from './support/encrypted-films.ts';
import { adminSession, createPlan, signInContext, type ApiSession } from './support/seed.ts';
import { type BuiltServer, startBuiltServer } from './support/server.ts';
import { controlledByServiceWorker } from './support/service-worker.ts';

/**
 * Issue 10/14 §4–§5 in a real browser: Download Now asks which size, with its bytes and what it costs in data, and
 * downloads the chosen one to the end; Data Saver pre-selects Small. This suite runs its own server with ffmpeg, so
 * the clips it uploads get their renditions for real.
 */

let server: BuiltServer;
let browser: Browser;
let admin: ApiSession;
let planId: string;

beforeAll(async () => {
  server = await startBuiltServer(undefined, { FFMPEG_PATH: 'ffmpeg', FFPROBE_PATH: 'ffprobe' });
  useServer(server);
  browser = await launchBrowser();
  admin = await adminSession();
  planId = (await createPlan({ global_expiry_date: '2030-12-31T23:59' })).id;
});

afterAll(async () => {
  await browser?.close();
  useServer(null);
  await server?.stop();
});

const stamp = () => Date.now().toString(36);

/** The price the dialog uses: the operator's (the shared default when the server does not say). */
async function operatorPrice(): Promise<number> {
  try {
    return (await apiCall<{ dataPricePerGbUgx: number }>('/settings/data-price')).dataPricePerGbUgx;
  } catch {
    return DEFAULT_DATA_PRICE_PER_GB_UGX;
  }
}

const LABELS = { 'small-hevc': 'Small', small: 'Small', standard: 'Standard', hd: 'HD', original: 'Original' } as const;
/** The sizes this Chromium is offered: it has no HEVC decoder, so not the HEVC Small (small-hevc.e2e.ts, decision 0252). */
const offeredHere = (sizes: MovieSize[]) => sizes.filter((s) => s.size !== 'small-hevc');
/** What a size costs in the dialog's words: "under UGX 100" below the estimate's floor (test clips are that small). */
const costWords = (bytes: number, price: number) =>
  (bytes / 1e9) * price < DATA_COST_FLOOR_UGX
    ? `under\u00a0UGX\u00a0${DATA_COST_FLOOR_UGX}`
    : `≈\u00a0UGX\u00a0${dataCostUgx(bytes, price).toLocaleString('en-US')}`;
const optionText = (size: MovieSize, price: number) =>
  `${LABELS[size.size]} · ${formatBytes(size.bytes)} · ${costWords(size.bytes, price)} of data`;

async function subscriber(dataSaver: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser);
  if (dataSaver) {
    // This phone also runs the dark theme: the dialog must read well in both.
    await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
    // Chromium's network emulation does not set saveData: the page sees what Chrome on Android says with Data Saver.
    await context.addInitScript(() => {
      const connection = Object.assign(new EventTarget(), { saveData: true, effectiveType: '3g' });
      Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => connection });
    });
  }
  const page = await context.newPage();
  await signInSubscriber(page, planId);
  return { context, page };
}

describe('Choosing a size before a download', () => {
  it('pre-selects Small, shows each size with its bytes and UGX price, downloads the Original picked, and remembers it', async () => {
    const title = `Size Choice ${stamp()}`;
    const movie = await addMovie(planId, title);
    const original = movie.sizes.find((s) => s.size === 'original')!;
    expect(original).toBeDefined();
    const price = await operatorPrice();
    const { context, page } = await subscriber(false);
    try {
      await page.goto(`/movies/${movie.id}`);
      await page.getByRole('button', { name: 'Download Now' }).click();
      const dialog = page.getByRole('dialog', { name: `Download ${title}` });
      // The dialog element itself has no box (its panel is fixed): wait for what is in it.
      await dialog.getByRole('button', { name: 'Cancel' }).waitFor();
      // Escape closes it and the keyboard is back on the button that opened it.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Download Now');
      await page.keyboard.press('Enter');
      await dialog.getByRole('button', { name: 'Cancel' }).waitFor();
      for (const size of offeredHere(movie.sizes)) {
        await dialog.getByText(optionText(size, price), { exact: true }).waitFor();
      }
      // A first download on a connection that says nothing (Wi-Fi, a MiFi: paid data too) pre-selects Small,
      // and the Original says what it is.
      expect(await dialog.getByRole('radio', { name: /^Small · / }).isChecked()).toBe(true);
      await dialog.getByText('The uploaded file, largest', { exact: true }).waitFor();
      const originalRadio = dialog.getByRole('radio', { name: new RegExp(`^Original · `) });
      await originalRadio.check();
      await expectAccessible(page, 'size choice dialog');
      await page.setViewportSize({ width: 360, height: 740 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

      await dialog.getByRole('button', { name: 'Download Original' }).click();
      await page.getByText('On this phone', { exact: true }).waitFor({ timeout: 30_000 });
      const record = await waitForRecord(page, movie.id, isComplete);
      expect(record).toMatchObject({ size: original.bytes, sizeChoice: 'original' });

      // Encrypted on the phone (decision 0235): the same length as the upload, not its bytes; it plays only through
      // the service worker with the film's licence, offline too.
      const held = await opfsSha256(page, movie.id);
      expect(held.size).toBe(movie.bytes.length);
      expect(held.sha).not.toBe(sha256(movie.bytes));
      await controlledByServiceWorker(page);
      await context.setOffline(true);
      await page.goto(`/downloads/${movie.id}/play`);
      const video = page.locator('video');
      await video.waitFor();
      expect(await video.getAttribute('src')).toMatch(/^\/play\//);
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3);
      expect(await video.evaluate((v: HTMLVideoElement) => v.error)).toBeNull();
      await context.setOffline(false);

      // The server was asked for the original, and My Downloads says what it used.
      const session = await browserSession(page);
      const history = await apiCall<{ downloads: Array<{ movieId: string; size: string; status: string }> }>(
        '/users/me/downloads',
        { token: session.token, deviceId: session.deviceId },
      );
      expect(history.downloads.find((d) => d.movieId === movie.id)).toMatchObject({
        size: 'original',
        status: 'completed',
      });
      await page.goto('/downloads');
      const used = page.getByTestId('data-used');
      await used.waitFor();
      expect(await used.innerText()).toMatch(new RegExp(`^Original · Used ${formatBytes(original.bytes)} of data`));

      // Deleted from the phone, "Download again" offers the sizes with their price, and takes the one picked.
      await page.getByRole('button', { name: `Delete ${title}` }).click();
      await page
        .getByRole('dialog', { name: 'Delete from this phone?' })
        .getByRole('button', { name: 'Delete', exact: true })
        .click();
      await page.getByText('No movies on this phone yet').waitFor();
      await page.goto(`/movies/${movie.id}`);
      await page.getByRole('button', { name: 'Download again' }).click();
      const again = page.getByRole('dialog', { name: `Download ${title} again?` });
      for (const size of offeredHere(movie.sizes)) {
        await again.getByText(optionText(size, price), { exact: true }).waitFor();
      }
      // The Original picked before on this phone is pre-selected again.
      expect(await again.getByRole('radio', { name: /^Original · / }).isChecked()).toBe(true);
      await expectAccessible(page, 'download again with sizes');
      await again.getByRole('radio', { name: /^Small · / }).check();
      await again.getByRole('button', { name: 'Download again' }).click();
      const small = movie.sizes.find((s) => s.size === 'small')!;
      expect(await waitForRecord(page, movie.id, isComplete)).toMatchObject({ size: small.bytes, sizeChoice: 'small' });

      // The next movie's size choice remembers the size picked last on this phone (Small, in "Download again").
      const next = await addMovie(planId, `${title} Next`);
      await page.goto(`/movies/${next.id}`);
      await page.getByRole('button', { name: 'Download Now' }).click();
      const nextDialog = page.getByRole('dialog', { name: `Download ${title} Next` });
      await nextDialog.getByRole('button', { name: 'Cancel' }).waitFor();
      expect(await nextDialog.getByRole('radio', { name: /^Small · / }).isChecked()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('pre-selects Small with Data Saver on', async () => {
    const title = `Data Saver ${stamp()}`;
    const movie = await addMovie(planId, title);
    const { context, page } = await subscriber(true);
    try {
      await page.goto(`/movies/${movie.id}`);
      await page.getByRole('button', { name: 'Download Now' }).click();
      const dialog = page.getByRole('dialog', { name: `Download ${title}` });
      // The dialog element itself has no box (its panel is fixed): wait for what is in it.
      await dialog.getByRole('button', { name: 'Cancel' }).waitFor();
      const smallest = offeredHere(movie.sizes).reduce((a, b) => (b.bytes < a.bytes ? b : a));
      const checked = dialog.getByRole('radio', { checked: true });
      expect(await checked.count()).toBe(1);
      expect(await checked.getAttribute('value')).toBe(smallest.size);
      await dialog.getByRole('button', { name: `Download ${LABELS[smallest.size]}` }).waitFor();
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      await expectAccessible(page, 'size choice dialog, dark theme, Data Saver');
      expect(smallest.size).toBe('small');
    } finally {
      await context.close();
    }
  });
});

describe('A film taken down for rights', () => {
  it('stops playing on the phone at its next online check, and the Play screen says why', async () => {
    const title = `Taken Down ${stamp()}`;
    const movie = await addMovie(planId, title);
    const { context, page } = await subscriber(false);
    try {
      await page.goto(`/movies/${movie.id}`);
      await page.getByRole('button', { name: 'Download Now' }).click();
      const dialog = page.getByRole('dialog', { name: `Download ${title}` });
      await dialog.getByRole('button', { name: 'Download Small' }).click();
      await waitForRecord(page, movie.id, isComplete);

      const taken = await apiCall<{ revokedLicences: number }>(`/admin/movies/${movie.id}/take-down`, {
        ...admin,
        method: 'POST',
        body: { reason: 'The rights holder withdrew it.' },
      });
      expect(taken.revokedLicences).toBe(1);
      // The app opens online: its check hears the licence was revoked and keeps that on the phone.
      await page.goto('/downloads');
      await waitForRevoked(page, movie.id, 'taken_down');
      // Offline now, the film no longer plays: the words say why, never a player error.
      await controlledByServiceWorker(page);
      await context.setOffline(true);
      await page.goto(`/downloads/${movie.id}/play`);
      await page
        .getByText('This film was taken down by Filamu and can no longer be played.', { exact: false })
        .waitFor({ timeout: 60_000 });
      expect(await page.locator('video').count()).toBe(0);
      await expectAccessible(page, 'a film taken down, on the Play screen');
      await context.setOffline(false);
    } finally {
      await context.close();
    }
  });
});

describe('Sizes in the admin console', () => {
  it('shows each movie’s sizes as the server made them, and checks the data price', async () => {
    const title = `Console Sizes ${stamp()}`;
    const movie = await addMovie(planId, title);
    const status = await apiCall<{ transcoder: { available: boolean } }>('/admin/system', admin);
    expect(status.transcoder.available).toBe(true);
    const context = await newContext(browser);
    await signInContext(context, admin);
    const page = await context.newPage();
    try {
      await page.goto('/admin/movies');
      await page.getByRole('heading', { name: /Manage Movies/ }).waitFor();
      // ffmpeg is there (this suite's own server), so no notice; admin-movies.e2e.ts checks it without ffmpeg.
      expect(await page.getByTestId('transcoder-missing').count()).toBe(0);
      await page.getByRole('searchbox', { name: 'Search movies' }).fill(title);
      const row = page.getByRole('row').filter({ hasText: title });
      const sizes = row.getByRole('list', { name: `Sizes of ${title}` });
      await sizes.waitFor();
      const small = movie.sizes.find((s) => s.size === 'small')!;
      expect(small).toBeDefined();
      await sizes.getByText(`Ready · ${formatBytes(small.bytes)}`).waitFor();
      // The uploaded file is listed too: it is a size people can pick.
      const original = movie.sizes.find((s) => s.size === 'original')!;
      await sizes.getByText(`Original: Ready · ${formatBytes(original.bytes)}`).waitFor();

      // The operator's data price: the shared schema's messages, before anything is sent.
      await page.goto('/admin');
      const price = page.getByRole('textbox', { name: 'Price of 1 GB of data (UGX)' });
      await expect.poll(() => price.isEnabled(), { timeout: 10_000 }).toBe(true);
      await price.fill('50');
      await page.getByRole('button', { name: 'Save price' }).click();
      await page.getByText('The price of 1 GB must be at least UGX 100.').waitFor();
      expect(await price.getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page, 'overview with the data price form');
    } finally {
      await context.close();
    }
  });
});
