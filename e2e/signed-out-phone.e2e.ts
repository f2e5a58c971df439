import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { launchBrowser, login, newContext, newUser, register } from './support/browser.ts';
import { browserSession, confirmSize, isComplete, smallMovie, waitForRecord } from './support/downloads.ts';
import { adminSession, createPlan, uploadMovie } from './support/seed.ts';

/**
 * A phone signed out by the single-device rule keeps playing what it holds (issue 18/22, decision 0233): My Downloads
 * and the Play screen stay open for the last person signed in on it, under a bar that offers to sign in again, with
 * nothing that needs the server; someone else signing in sees none of it, and logging out on purpose forgets it.
 */
let browser: Browser;
let admin: { token: string; deviceId: string };
let planId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await adminSession();
  planId = (await createPlan({ global_expiry_date: '2030-12-31T23:59' })).id;
});

afterAll(async () => {
  await browser?.close();
});

const BAR = 'Signed out on this phone — sign in to download more';

describe('A signed-out phone', () => {
  it('keeps showing and opening the films of the last person signed in on it', async () => {
    const title = `Signed Out Movie ${Date.now().toString(36)}`;
    const clip = smallMovie(title);
    const { id: movieId } = await uploadMovie(clip, { title, category: 'Kinayuganda', planIds: [planId] });
    const user = newUser();
    const first = await newContext(browser);
    const second = await newContext(browser);
    try {
      // The person downloads a film on the first phone.
      const page = await first.newPage();
      await register(page, user);
      await page.waitForURL('**/subscription');
      const { userId } = await browserSession(page);
      await apiCall(`/admin/subscribers/${userId}/manage-subscription`, {
        method: 'PUT',
        ...admin,
        body: { action: 'activate_extend', subscription_plan_id: planId },
      });
      await page.goto(`/movies/${movieId}`);
      await page.getByRole('button', { name: 'Download Now' }).click();
      await confirmSize(page);
      await waitForRecord(page, movieId, isComplete);

      // Signing in on a second phone signs the first out (the single-device rule).
      const other = await second.newPage();
      await login(other, user.email, user.password);
      await other.waitForURL('**/dashboard');

      await page.goto('/downloads');
      const bar = page.getByRole('complementary', { name: 'Signed out' });
      await bar.getByText(BAR).waitFor();
      await page.getByText('You have been signed out').first().waitFor();
      expect(new URL(page.url()).pathname).toBe('/downloads');
      const item = page.getByRole('article', { name: title });
      await item.getByText('Downloaded').waitFor();
      // What needs no server stays; the library and new downloads wait for a sign-in.
      await item.getByRole('link', { name: `Play ${title}` }).waitFor();
      await item.getByRole('button', { name: `Keep a copy ${title}` }).waitFor();
      expect(await page.getByRole('link', { name: 'Browse Movies' }).count()).toBe(0);
      expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
      await page.setViewportSize({ width: 360, height: 780 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await expectAccessible(page, 'My Downloads, signed out (light)');
      await page.evaluate(() => localStorage.setItem('theme', 'dark'));
      await page.reload();
      await bar.getByText(BAR).waitFor();
      await item.getByText('Downloaded').waitFor();
      await expectAccessible(page, 'My Downloads, signed out (dark)');

      // The Play screen opens for the film, under the same bar.
      await item.getByRole('link', { name: `Play ${title}` }).click();
      await page.waitForURL(`**/downloads/${movieId}/play`);
      await page.getByRole('heading', { name: title }).waitFor();
      await bar.getByText(BAR).waitFor();
      await page.locator('video').waitFor({ state: 'attached' });
      await expectAccessible(page, 'Play, signed out (dark)');

      // Sign in leads to the login screen.
      await bar.getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL('**/login');

      // Someone else signing in on this phone sees none of the first person's films.
      const someoneElse = newUser();
      await register(page, someoneElse);
      await page.waitForURL('**/subscription');
      // From here on a slow phone's CPU: a signed-in screen's guard once won the race against Log out's move to the
      // landing and sent the person to /login instead.
      const cdp = await first.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
      await page.goto('/downloads');
      await page.getByText('No movies on this phone yet').waitFor();
      expect(await page.getByRole('complementary', { name: 'Signed out' }).count()).toBe(0);
      expect(await page.getByText(title).count()).toBe(0);

      // Logging out on purpose: the landing, then the phone shows nobody's films until someone signs in.
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByRole('dialog', { name: 'Log out of Filamu?' }).getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('link', { name: 'Join Now' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await page.goto('/downloads');
      await page.waitForURL('**/login');
    } finally {
      await first.close();
      await second.close();
    }
  }, 120_000);
});
