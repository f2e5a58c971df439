import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBytes } from '../shared/src/format.ts';
import {
  DATA_COST_FLOOR_UGX,
  dataCostUgx,
  DEFAULT_DATA_PRICE_PER_GB_UGX,
  type MovieSize,
  SMALL_HEVC_DECODING,
} from '../shared/src/schemas/renditions.ts';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { launchBrowser, newContext, useServer } from './support/browser.ts';
import { browserSession, isComplete, signInSubscriber, waitForRecord } from './support/downloads.ts';
import { type AddedMovie, addMovie } from './support/encrypted-films.ts';
import { createPlan } from './support/seed.ts';
import { type BuiltServer, startBuiltServer } from './support/server.ts';
import { controlledByServiceWorker } from './support/service-worker.ts';

/**
 * Issue 20/22 item 2 (decision 0252): the phone chooses its Small. The server makes both Smalls of every movie; a phone
 * is offered only the one it plays — this Chromium (no HEVC decoder) the H.264 Small, which it downloads and plays;
 * a phone whose decoder answers HEVC in hardware, and Opus, the HEVC Small, as "Small" with its own bytes and price.
 * That phone is played here by answering for the decoder (`page.addInitScript`): HEVC is never played in Chromium.
 */

let server: BuiltServer;
let browser: Browser;
let planId: string;
let movie: AddedMovie;
let smallH264: MovieSize;
let smallHevc: MovieSize;
let price: number;

beforeAll(async () => {
  server = await startBuiltServer(undefined, { FFMPEG_PATH: 'ffmpeg', FFPROBE_PATH: 'ffprobe' });
  useServer(server);
  browser = await launchBrowser();
  planId = (await createPlan({ global_expiry_date: '2030-12-31T23:59' })).id;
  movie = await addMovie(planId, `Two Smalls ${Date.now().toString(36)}`);
  smallH264 = movie.sizes.find((s) => s.size === 'small')!;
  smallHevc = movie.sizes.find((s) => s.size === 'small-hevc')!;
  try {
    price = (await apiCall<{ dataPricePerGbUgx: number }>('/settings/data-price')).dataPricePerGbUgx;
  } catch {
    price = DEFAULT_DATA_PRICE_PER_GB_UGX;
  }
});

afterAll(async () => {
  await browser?.close();
  useServer(null);
  await server?.stop();
});

/** What a size reads in the dialog: "Small · 41.2 KB · under UGX 100 of data". */
function smallText(size: MovieSize): string {
  const cost =
    (size.bytes / 1e9) * price < DATA_COST_FLOOR_UGX
      ? `under\u00a0UGX\u00a0${DATA_COST_FLOOR_UGX}`
      : `≈\u00a0UGX\u00a0${dataCostUgx(size.bytes, price).toLocaleString('en-US')}`;
  return `Small · ${formatBytes(size.bytes)} · ${cost} of data`;
}

/**
 * A phone that decodes the HEVC Small in hardware and plays Opus in MP4: its decoder's answers, for exactly the types
 * the app asks about; every other question goes to Chromium as it is.
 */
async function hevcPhone(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const decodingInfo = MediaCapabilities.prototype.decodingInfo;
    MediaCapabilities.prototype.decodingInfo = function (configuration) {
      if (configuration.video?.contentType.includes('hvc1')) {
        return Promise.resolve({
          supported: true,
          smooth: true,
          powerEfficient: true,
          keySystemAccess: null,
          configuration,
        });
      }
      return decodingInfo.call(this, configuration);
    };
    const canPlayType = HTMLMediaElement.prototype.canPlayType;
    HTMLMediaElement.prototype.canPlayType = function (type) {
      return /codecs="?opus/.test(type) ? 'probably' : canPlayType.call(this, type);
    };
  });
}

async function subscriber(hevc: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser);
  if (hevc) await hevcPhone(context);
  const page = await context.newPage();
  await signInSubscriber(page, planId);
  return { context, page };
}

/** Download Now on the movie's page, and the size dialog with its sizes listed. */
async function openSizeDialog(page: Page): Promise<Locator> {
  await page.goto(`/movies/${movie.id}`);
  await page.getByRole('button', { name: 'Download Now' }).click();
  const dialog = page.getByRole('dialog', { name: /^Download / });
  await dialog.getByRole('radio').first().waitFor();
  return dialog;
}

const offeredValues = (dialog: Locator) =>
  dialog.getByRole('radio').evaluateAll((radios) => radios.map((r) => (r as HTMLInputElement).value));

async function serverRow(page: Page): Promise<{ size: string; status: string }> {
  const session = await browserSession(page);
  const { downloads } = await apiCall<{ downloads: Array<{ movieId: string; size: string; status: string }> }>(
    '/users/me/downloads',
    { token: session.token, deviceId: session.deviceId },
  );
  return downloads.find((d) => d.movieId === movie.id)!;
}

describe('The phone chooses its Small', () => {
  it('the server made both Smalls of the movie, at the same height', () => {
    expect(smallH264).toBeDefined();
    expect(smallHevc).toBeDefined();
    expect(smallHevc.height).toBe(smallH264.height);
    console.info(`Small (H.264) ${smallH264.bytes} B, Small (HEVC) ${smallHevc.bytes} B of a 3-second clip`);
  });

  it('this Chromium, with no HEVC decoder, is offered the H.264 Small: it downloads and plays', async () => {
    const { context, page } = await subscriber(false);
    try {
      // The premise: this browser says it cannot decode the HEVC Small.
      const answer = await page.evaluate(
        (codec) =>
          navigator.mediaCapabilities.decodingInfo({
            type: 'file',
            video: {
              contentType: `video/mp4; codecs="${codec}"`,
              width: 640,
              height: 360,
              bitrate: 296_000,
              framerate: 30,
            },
          }),
        SMALL_HEVC_DECODING.videoCodec,
      );
      expect(answer.supported && answer.powerEfficient).toBe(false);

      const dialog = await openSizeDialog(page);
      await dialog.getByText(smallText(smallH264), { exact: true }).waitFor();
      const offered = await offeredValues(dialog);
      expect(offered).toContain('small');
      expect(offered).not.toContain('small-hevc');
      expect(await dialog.getByText(formatBytes(smallHevc.bytes), { exact: false }).count()).toBe(0);
      expect(await dialog.getByRole('radio', { name: /^Small · / }).isChecked()).toBe(true);
      // A phone that cannot play HEVC has no "Small files" choice to make.
      await dialog.getByRole('button', { name: 'Download Small' }).click();
      const record = await waitForRecord(page, movie.id, isComplete);
      expect(record).toMatchObject({ size: smallH264.bytes, sizeChoice: 'small' });
      expect(await serverRow(page)).toMatchObject({ size: 'small', status: 'completed' });

      await controlledByServiceWorker(page);
      await page.goto(`/downloads/${movie.id}/play`);
      await page.locator('video').waitFor();
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3);
      expect(await page.locator('video').evaluate((v: HTMLVideoElement) => v.error)).toBeNull();

      await page.goto('/downloads');
      await page.getByRole('heading', { name: 'Download settings' }).waitFor();
      expect(await page.getByLabel('Small files').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('a phone that decodes HEVC in hardware is offered the HEVC Small as "Small", and its download records it', async () => {
    const { context, page } = await subscriber(true);
    try {
      const dialog = await openSizeDialog(page);
      await dialog.getByText(smallText(smallHevc), { exact: true }).waitFor();
      const offered = await offeredValues(dialog);
      expect(offered).toContain('small-hevc');
      expect(offered).not.toContain('small');
      expect(await dialog.getByRole('radio', { name: /^Small · / }).getAttribute('value')).toBe('small-hevc');
      expect(await dialog.getByRole('radio', { name: /^Small · / }).isChecked()).toBe(true);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // "Works on every phone" in Download settings: the H.264 Small, for films passed on to other phones.
      await page.goto('/downloads');
      const smallFiles = page.getByLabel('Small files');
      await smallFiles.waitFor();
      await expectAccessible(page, 'download settings with Small files');
      await page.setViewportSize({ width: 360, height: 740 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await smallFiles.selectOption({ label: 'Works on every phone' });
      const everyPhone = await openSizeDialog(page);
      await everyPhone.getByText(smallText(smallH264), { exact: true }).waitFor();
      expect(await offeredValues(everyPhone)).not.toContain('small-hevc');
      await everyPhone.getByRole('button', { name: 'Cancel' }).click();
      await page.goto('/downloads');
      await page.getByLabel('Small files').selectOption({ label: 'Smallest for this phone (recommended)' });

      const again = await openSizeDialog(page);
      await again.getByText(smallText(smallHevc), { exact: true }).waitFor();
      await again.getByRole('button', { name: 'Download Small' }).click();
      // The bytes are fetched whole (never played: this Chromium cannot decode them).
      const record = await waitForRecord(page, movie.id, isComplete);
      expect(record).toMatchObject({ size: smallHevc.bytes, sizeChoice: 'small-hevc' });
      expect(await serverRow(page)).toMatchObject({ size: 'small-hevc', status: 'completed' });
      await page.goto('/downloads');
      const used = page.getByTestId('data-used');
      await used.waitFor();
      expect(await used.innerText()).toMatch(new RegExp(`^Small · Used ${formatBytes(smallHevc.bytes)} of data`));
    } finally {
      await context.close();
    }
  });
});
