import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext } from './support/browser.ts';
import {
  createPlan,
  mp4Bytes,
  registerUser,
  signInContext,
  subscribeUser,
  uniqueStamp,
  uploadMovie,
  type SeededUser,
} from './support/seed.ts';

/** Compressed delivery (decisions 0070–0073) as Chromium receives it from the built server. */

let browser: Browser;
let subscriber: SeededUser;
const stamp = uniqueStamp();

beforeAll(async () => {
  browser = await launchBrowser();
  const plan = await createPlan();
  // Enough movies that the library's JSON is well over the 1 KB threshold.
  for (let n = 1; n <= 8; n++) {
    await uploadMovie(mp4Bytes(), {
      title: `Delivery ${stamp} ${n}`,
      category: 'Kinayuganda',
      vj: 'VJ Junior',
      description: 'A movie whose listing travels compressed, like every JSON answer over a kilobyte.',
      planIds: [plan.id],
    });
  }
  subscriber = await registerUser();
  await subscribeUser(subscriber.id, plan.id);
});

afterAll(async () => {
  await browser?.close();
});

const pathOf = (response: Response) => new URL(response.url()).pathname;

describe('compressed delivery', () => {
  it('sends the landing page, its JavaScript and its CSS as brotli, varying on Accept-Encoding', async () => {
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      const responses: Response[] = [];
      page.on('response', (response) => responses.push(response));
      await page.goto('/');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');

      const landing = responses.find((response) => pathOf(response) === '/')!;
      const scripts = responses.filter((response) => /^\/assets\/index-[\w-]+\.js$/.test(pathOf(response)));
      const styles = responses.filter((response) => /^\/assets\/index-[\w-]+\.css$/.test(pathOf(response)));
      expect(scripts.length).toBe(1);
      expect(styles.length).toBe(1);
      for (const response of [landing, ...scripts, ...styles]) {
        const headers = await response.allHeaders();
        const path = pathOf(response);
        expect(response.status(), path).toBe(200);
        expect(headers['content-encoding'], path).toBe('br');
        expect(headers['vary'], path).toMatch(/accept-encoding/i);
      }
      for (const response of [...scripts, ...styles]) {
        expect((await response.allHeaders())['cache-control']).toBe('public, max-age=31536000, immutable');
      }
      expect((await landing.allHeaders())['cache-control']).toBe('no-cache');
      // The browser decoded what it got: the landing rendered with its styles.
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).not.toBe('rgba(0, 0, 0, 0)');
    } finally {
      await context.close();
    }
  });

  it('sends the library JSON, over a kilobyte, as brotli', async () => {
    const context = await newContext(browser);
    try {
      await signInContext(context, subscriber);
      const page = await context.newPage();
      const library = page.waitForResponse((response) => pathOf(response) === '/api/users/movies');
      await page.goto('/movies');
      const response = await library;
      const headers = await response.allHeaders();
      expect(response.status()).toBe(200);
      expect(headers['content-encoding']).toBe('br');
      expect(headers['vary']).toMatch(/accept-encoding/i);
      expect((await response.body()).length).toBeGreaterThan(1024);
      await page.getByText(`Delivery ${stamp} 1`, { exact: true }).first().waitFor();
    } finally {
      await context.close();
    }
  });
});
