import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoMovie } from '../api/demo/media/index.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { baseURL, launchBrowser, login } from './support/browser.ts';
import { browserSession, isComplete, tapDownload, waitForRecord } from './support/downloads.ts';
import { createPlan, posterPng, registerUser, subscribeUser, uploadMovie, type SeededUser } from './support/seed.ts';

/**
 * Resume where you stopped and the phone player (decisions 0163–0165), in Chromium against the built app: a real
 * download played from OPFS, the position saved while leaving, offered again after a reload and offline, on the
 * dashboard's Continue watching, and on another phone through the server.
 */
let browser: Browser;
let planId: string;
let clip: Buffer;

beforeAll(async () => {
  browser = await launchBrowser();
  planId = (await createPlan()).id;
  clip = generateDemoMovie({
    title: 'Taxi Ride',
    palette: [
      [30, 60, 120],
      [220, 120, 30],
    ],
    seconds: 20,
  }).bytes;
});

afterAll(async () => {
  await browser?.close();
});

let counter = 0;
async function movie() {
  counter += 1;
  const title = `Taxi Ride ${Date.now().toString(36)}${counter}`;
  const { id } = await uploadMovie(clip, {
    title,
    category: 'Kinayuganda',
    vj: 'VJ Junior',
    rating: '13',
    planIds: [planId],
    thumbnail: posterPng(title),
  });
  return { id, title };
}

async function phone(
  theme: 'light' | 'dark' = 'light',
  width = 390,
): Promise<{ context: BrowserContext; page: Page; user: SeededUser }> {
  const user = await registerUser();
  await subscribeUser(user.id, planId);
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width, height: 800 } });
  await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
  const page = await context.newPage();
  await login(page, user.email, user.password);
  await page.waitForURL('**/dashboard');
  return { context, page, user };
}

/** What the server holds for the signed-in person (GET /api/users/watch-positions). */
function serverPositions(page: Page) {
  return page.evaluate(async () => {
    const saved = JSON.parse(localStorage.getItem('filamu.session')!) as { token: string };
    const response = await fetch('/api/users/watch-positions', {
      headers: { Authorization: `Bearer ${saved.token}`, 'X-Device-Id': localStorage.getItem('filamu.deviceId')! },
    });
    return (await response.json()) as { positions: { movieId: string; positionSeconds: number; updatedAt: string }[] };
  });
}

const currentTime = (page: Page) => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);

/** Opens the player and waits until the film's length is known (the file is read from the phone). */
async function openPlayer(page: Page, movieId: string): Promise<void> {
  await page.goto(`/downloads/${movieId}/play`);
  await page.locator('video').waitFor();
  await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1);
}

describe('resume where you stopped', () => {
  it('offers "Resume from" after leaving, a reload and offline; Continue watching and another phone show it', async () => {
    const { id, title } = await movie();
    const { context, page, user } = await phone();
    let other: BrowserContext | null = null;
    try {
      await tapDownload(page, id);
      await waitForRecord(page, id, isComplete);
      await page.evaluate(() => navigator.serviceWorker.ready);

      await openPlayer(page, id);
      // Media Session: the lock screen shows the title and the VJ.
      const metadata = await page.evaluate(() => ({
        title: navigator.mediaSession.metadata?.title,
        artist: navigator.mediaSession.metadata?.artist,
        artwork: navigator.mediaSession.metadata?.artwork.length,
      }));
      expect(metadata).toEqual({ title, artist: 'VJ Junior', artwork: 1 });
      // The rating the library showed goes with the film to the player (kept on the phone with the download).
      const rating = page.locator('main').getByText('Rated 13+', { exact: true });
      await rating.waitFor();
      expect(await rating.isVisible()).toBe(true);
      // Never watched: no question, the film starts at the beginning.
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5);
      expect(await page.getByRole('button', { name: /^Resume from/ }).count()).toBe(0);

      // Paused at 0:02, then +10 s, −10 s, +10 s: 0:12 of 0:20.
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.locator('video').evaluate((v: HTMLVideoElement) => (v.currentTime = 2));
      await page.getByRole('button', { name: 'Forward 10 s' }).click();
      await page.getByRole('button', { name: 'Back 10 s' }).click();
      await page.getByRole('button', { name: 'Forward 10 s' }).click();
      expect(await currentTime(page)).toBeCloseTo(12, 0);
      // Leaving the player saves where it was.
      await page.getByRole('link', { name: 'Back to My Downloads' }).click();
      await page.getByText('Stopped at 0:12').waitFor();

      await openPlayer(page, id);
      const resume = page.getByRole('button', { name: 'Resume from 0:12' });
      await resume.waitFor();
      expect(await resume.evaluate((b) => b === document.activeElement)).toBe(true);
      // The film already waits there: play, from anywhere, starts at 0:12.
      expect(await currentTime(page)).toBeCloseTo(12, 0);
      expect(
        await page.getByRole('button', { name: 'Start over' }).isVisible(),
        'Start over is offered beside Resume',
      ).toBe(true);

      await page.reload();
      await page.getByRole('button', { name: 'Resume from 0:12' }).waitFor();

      // The server has it too (sent when the player was left).
      const server = await serverPositions(page);
      expect(server.positions).toHaveLength(1);
      expect(server.positions[0]!.movieId).toBe(id);
      expect(server.positions[0]!.positionSeconds).toBeCloseTo(12, 0);

      await context.setOffline(true);
      await openPlayer(page, id);
      await page.getByRole('button', { name: 'Resume from 0:12' }).click();
      // It plays on from 0:12 (never from the start) while offline.
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 12.3);
      expect(await currentTime(page)).toBeLessThan(15);
      await page.getByRole('button', { name: 'Pause' }).click();

      await page.goto('/dashboard');
      const row = page.getByRole('region', { name: 'Continue watching' });
      await row.waitFor();
      const bar = row.getByRole('progressbar', { name: title });
      expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(60);
      await row.getByRole('link', { name: new RegExp(`^Resume ${title} from 0:1\\d$`) }).click();
      await page.getByRole('button', { name: /^Resume from 0:1\d$/ }).waitFor();
      // Back online: the position saved offline (queued on the phone) reaches the server by itself.
      await context.setOffline(false);
      // Polled from the test: waitForFunction would take the fetch's promise for a truthy answer and not wait.
      const before = server.positions[0]!.updatedAt;
      await expect
        .poll(async () => (await serverPositions(page)).positions[0]!.updatedAt > before, {
          interval: 250,
          timeout: 15_000,
        })
        .toBe(true);
      expect((await serverPositions(page)).positions[0]!.positionSeconds).toBeGreaterThan(12);

      // Another phone of the same person: no file there, but the position came from the server.
      other = await browser.newContext({ baseURL: baseURL(), viewport: { width: 390, height: 800 } });
      const second = await other.newPage();
      await login(second, user.email, user.password);
      await second.waitForURL('**/dashboard');
      const otherRow = second.getByRole('region', { name: 'Continue watching' });
      await otherRow.getByText('Not on this phone').waitFor();
      await otherRow.getByRole('heading', { name: title }).waitFor();
    } finally {
      await other?.close();
      await context.close();
    }
  });

  it('shows Watched past 90 % and then starts from the beginning', async () => {
    const { id, title } = await movie();
    const { context, page } = await phone();
    try {
      await tapDownload(page, id);
      await waitForRecord(page, id, isComplete);
      await openPlayer(page, id);
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.locator('video').evaluate((v: HTMLVideoElement) => (v.currentTime = 19));
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByRole('link', { name: 'Back to My Downloads' }).click();
      await page.getByText('Watched', { exact: true }).waitFor();
      await page.goto(`/movies?search=${encodeURIComponent(title)}`);
      await page.getByRole('article', { name: title }).getByText('Watched', { exact: true }).waitFor();
      await page.goto('/downloads');
      await page.getByText('Watched', { exact: true }).waitFor();
      // Opened from My Downloads (the positions are loaded: Watched is on screen), it asks nothing and starts at 0:00.
      await page.getByRole('link', { name: /^Play/ }).click();
      await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1);
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.2);
      expect(await page.getByRole('button', { name: /^Resume from/ }).count()).toBe(0);
      expect(await currentTime(page)).toBeLessThan(5);
    } finally {
      await context.close();
    }
  });
});

describe('the player on a phone', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`passes axe at 360 px in ${theme}, with the resume question, and never scrolls sideways`, async () => {
      const { id } = await movie();
      const { context, page } = await phone(theme, 360);
      try {
        await tapDownload(page, id);
        await waitForRecord(page, id, isComplete);
        await openPlayer(page, id);
        await page.getByRole('button', { name: 'Play', exact: true }).click();
        await page.locator('video').evaluate((v: HTMLVideoElement) => (v.currentTime = 7));
        await page.getByRole('button', { name: 'Pause' }).click();
        // Keyboard shortcuts: m mutes (and is remembered), l goes forward 10 s; never inside a form field.
        await page.locator('body').press('m');
        expect(await page.locator('video').evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
        await page.getByLabel('Playback speed').selectOption('1.5');
        await page.getByLabel('Playback speed').press('l');
        expect(await currentTime(page)).toBeCloseTo(7, 0);
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        await page.keyboard.press('l');
        expect(await currentTime(page)).toBeCloseTo(17, 0);
        await page.keyboard.press('ArrowLeft');
        expect(await currentTime(page)).toBeCloseTo(7, 0);
        await page.getByRole('link', { name: 'Back to My Downloads' }).click();
        await page.getByText('Stopped at 0:07').waitFor();

        await openPlayer(page, id);
        await page.getByRole('button', { name: 'Resume from 0:07' }).waitFor();
        const remembered = await page
          .locator('video')
          .evaluate((v: HTMLVideoElement) => ({ muted: v.muted, rate: v.playbackRate }));
        expect(remembered).toEqual({ muted: true, rate: 1.5 });
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
        expect(await page.locator('main').getByText('Rated 13+', { exact: true }).isVisible()).toBe(true);
        const violations = await axeViolations(page);
        expect(violations, describeViolations(violations)).toEqual([]);
        expect((await browserSession(page)).userId).toBeTruthy();
      } finally {
        await context.close();
      }
    });
  }
});
