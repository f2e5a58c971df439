import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filmCounterBlock } from '../shared/src/film-cipher.ts';
import { expectAccessible } from './support/axe.ts';
import { launchBrowser, newContext, newUser, register } from './support/browser.ts';
import { browserSession, keepLicenceOnPhone, localRecord, putLocalDownload, smallMovie } from './support/downloads.ts';
import { controlledByServiceWorker } from './support/service-worker.ts';

/**
 * An encrypted film on the phone (decisions 0229, 0232), in Chromium against the built app: the file is encrypted
 * here as the server encrypts it (AES-128-CTR from block 0's counter) and its licence wrapped for the phone's own key,
 * so the player's path is tested without the server's encryption: the service worker's ranges, real playback and a
 * seek, and the Play screen's words when the licence moved.
 */
let browser: Browser;
let clip: Buffer;

beforeAll(async () => {
  browser = await launchBrowser();
  clip = smallMovie('Sealed Film');
});

afterAll(async () => {
  await browser?.close();
});

/** What the service worker answers the page for `range` at the film's play address: status, Content-Range, bytes. */
function playFetch(page: Page, address: string, range: string) {
  return page.evaluate(
    async ({ address, range }) => {
      const response = await fetch(address, { headers: { Range: range } });
      return {
        status: response.status,
        contentRange: response.headers.get('Content-Range'),
        bytes: [...new Uint8Array(await response.arrayBuffer())],
      };
    },
    { address, range },
  );
}

describe('an encrypted film on this phone', () => {
  it('plays and seeks through the service worker, and says so in words when its licence moved', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await register(page, newUser());
      await page.waitForURL('**/subscription');
      await page.goto('/downloads');
      await controlledByServiceWorker(page);

      const { userId } = await browserSession(page);
      const movieId = randomUUID();
      const rawKey = randomBytes(16);
      const nonce = randomBytes(8);
      const cipher = createCipheriv('aes-128-ctr', rawKey, filmCounterBlock(nonce, 0));
      const sealed = Buffer.concat([cipher.update(clip), cipher.final()]);
      const record = localRecord(
        userId,
        { movieId, title: 'Sealed Film', size: clip.length },
        {
          state: 'complete',
          committed: clip.length,
          completedAt: Date.now(),
          reportedComplete: true,
          rating: 'all',
          fileNonce: nonce.toString('base64url'),
        },
      );
      // The licence was made here, not by the server: the app's online check (decision 0233) would hear it is unknown
      // and mark it revoked at the next page load, so this phone's check is answered "none revoked".
      await context.route('**/api/licences/check', (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ revoked: [] }) }),
      );
      await putLocalDownload(page, record, sealed);
      await keepLicenceOnPhone(page, record.ownerId, movieId, rawKey);

      // The service worker's answers are the plain film, range by range.
      const address = `/play/${encodeURIComponent(record.key)}`;
      const part = await playFetch(page, address, 'bytes=1000-4999');
      expect(part.status).toBe(206);
      expect(part.contentRange).toBe(`bytes 1000-4999/${clip.length}`);
      expect(Buffer.from(part.bytes).equals(clip.subarray(1000, 5000))).toBe(true);
      const past = await playFetch(page, address, `bytes=${clip.length}-`);
      expect(past.status).toBe(416);
      expect(past.contentRange).toBe(`bytes */${clip.length}`);

      // The player reads it through the service worker: it plays, and a seek lands.
      await page.goto(`/downloads/${movieId}/play`);
      const video = page.locator('video');
      await video.waitFor();
      expect(await video.getAttribute('src')).toBe(address);
      await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1);
      expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeCloseTo(3, 0);
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3);
      await video.evaluate((v: HTMLVideoElement) => {
        v.pause();
        v.currentTime = 2.2;
      });
      await page.waitForFunction(() => {
        const v = document.querySelector('video');
        return v !== null && !v.seeking && v.readyState >= 2 && Math.abs(v.currentTime - 2.2) < 0.3;
      });
      expect(await video.evaluate((v: HTMLVideoElement) => v.error?.code ?? null)).toBeNull();
      expect(await page.getByRole('alert').count()).toBe(0);

      // The licence moved to another phone (as the online check would mark it): the screen says so, with a way back.
      await keepLicenceOnPhone(page, record.ownerId, movieId, rawKey, 'moved');
      await page.reload();
      await page.getByRole('alert').getByText('This film was saved on another phone.').waitFor();
      await page.getByRole('button', { name: 'Get it on this phone' }).waitFor();
      expect(await page.locator('video').count()).toBe(0);
      expect((await playFetch(page, address, 'bytes=0-')).status).toBe(403);
      await page.setViewportSize({ width: 360, height: 780 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await expectAccessible(page, 'Play: saved on another phone (light)');
      await page.evaluate(() => localStorage.setItem('theme', 'dark'));
      await page.reload();
      await page.getByRole('button', { name: 'Get it on this phone' }).waitFor();
      await expectAccessible(page, 'Play: saved on another phone (dark)');
    } finally {
      await context.close();
    }
  });
});
