import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser } from './support/browser.ts';
import { adminSession, signInContext, uniqueStamp } from './support/seed.ts';

/**
 * The device check (issue 20/22 item 4, decision 0253): a phone opens /device-check signed out, is told what it plays
 * of each rendition, plays the H.264 Small's sample, and sends the result, which the console's Phones tab lists with
 * the phone read from its User-Agent. This Chromium has no HEVC decoder, so its HEVC Small is "no".
 */
const PHONE = { width: 360, height: 740 };
const MODEL = `TECNO KF6i-${uniqueStamp()}`;
/** A Tecno on Chrome 156 whose header still names it (as a WebView or an older Chrome does). */
const TECNO_UA = `Mozilla/5.0 (Linux; Android 11; ${MODEL} Build/RP1A.200720.011) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36`;

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
});

async function phonePage(options: { userAgent?: string; theme?: 'light' | 'dark'; admin?: boolean } = {}) {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: PHONE, userAgent: options.userAgent });
  contexts.push(context);
  if (options.admin) await signInContext(context, await adminSession(), options.theme);
  return context.newPage();
}

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${where} is ${scrollWidth}px wide at ${innerWidth}px`).toBeLessThanOrEqual(innerWidth);
}

interface ListedCheck {
  model: string | null;
  androidVersion: string | null;
  chromeVersion: string | null;
  hevcSmall: boolean;
  h264Small: boolean;
  signedIn: boolean;
  answers: Record<string, { played: string }>;
}

describe('the device check page', () => {
  it('says what this phone plays, plays the H.264 Small, and sends the result the console lists', async () => {
    const page = await phonePage({ userAgent: TECNO_UA });
    await page.goto('/device-check');
    await page.getByRole('heading', { level: 1, name: 'Check this phone' }).waitFor();
    const summary = page.getByTestId('phone-summary');
    await summary.waitFor();
    expect(await summary.innerText()).toMatch(new RegExp(`Phone\\s+${MODEL}\\s+Android\\s+11\\s+Chrome\\s+156`));
    expect(await summary.innerText()).toMatch(/HEVC Small\s+No/);

    expect(await page.getByTestId('verdict-small').innerText()).toMatch(/^Plays/);
    expect(await page.getByTestId('verdict-small-hevc').innerText()).toBe(
      'Does not play — Filamu will give this phone the H.264 Small.',
    );
    const hevc = page.getByTestId('rendition-small-hevc');
    expect(await hevc.innerText()).toContain('video/mp4; codecs="hvc1.1.6.L90.90"');
    expect(await hevc.innerText()).toContain('Not supported');

    // The sample is fetched only when asked for.
    const clips: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/device-check/')) clips.push(new URL(request.url()).pathname);
    });
    await page.getByRole('button', { name: 'Play 3 seconds of H.264 Small' }).click();
    await expect.poll(() => page.getByTestId('played-small').innerText(), { timeout: 30_000 }).toBe('Played');
    expect(clips).toEqual(['/device-check/small.mp4']);

    await expectNoSidewaysScroll(page, '/device-check');
    await expectAccessible(page, 'device check at 360 px');

    await page.getByRole('button', { name: 'Send this result to Filamu' }).click();
    await page.getByText(/^Sent to Filamu/).waitFor();

    const admin = await adminSession();
    const { checks } = await apiCall<{ checks: ListedCheck[] }>('/admin/device-checks?pageSize=100', admin);
    expect(checks.find((check) => check.model === MODEL)).toMatchObject({
      androidVersion: '11',
      chromeVersion: '156',
      hevcSmall: false,
      h264Small: true,
      signedIn: false,
      answers: { small: { played: 'played' }, 'small-hevc': { played: 'not-tried' } },
    });
  });

  it('lists the phone in the console, with the share of checked phones that get HEVC Small, at 360 px in the dark', async () => {
    const page = await phonePage({ admin: true, theme: 'dark' });
    await page.goto('/admin/phones');
    await page.getByRole('heading', { level: 1, name: 'Phones' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: MODEL });
    await row.waitFor();
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells.slice(0, 3)).toEqual([MODEL, '11', '156']);
    expect(cells.slice(4)).toEqual(['No', 'Yes']);
    expect(await page.getByTestId('hevc-headline').innerText()).toMatch(
      /^\d+ of \d+ phones? checked gets? HEVC Small \(\d+ %\)$/,
    );
    await page.waitForFunction(() => !document.querySelector('main .animate-spin, main [aria-busy="true"]'));
    await expectNoSidewaysScroll(page, '/admin/phones');
    await expectAccessible(page, 'admin phones at 360 px (dark)');
  });
});
