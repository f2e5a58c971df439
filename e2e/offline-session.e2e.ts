import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, login, newContext, newUser, register } from './support/browser.ts';
import { controlledByServiceWorker, savedSession } from './support/service-worker.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Registers a new user and leaves the page on the dashboard, controlled by the service worker. */
async function signedInWithServiceWorker(page: Page, user: ReturnType<typeof newUser>): Promise<void> {
  await register(page, user);
  await page.waitForURL('**/subscription');
  await page.goto('/dashboard');
  await controlledByServiceWorker(page);
  await page.getByRole('heading', { name: `Welcome, ${user.fullName}` }).waitFor();
}

/** The token is still accepted by the server (the session was neither deleted locally nor revoked). */
async function profileStatus(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const saved = JSON.parse(localStorage.getItem('filamu.session') ?? 'null') as { token: string } | null;
    const response = await fetch('/api/auth/profile', {
      headers: {
        Authorization: `Bearer ${saved?.token ?? ''}`,
        'X-Device-Id': localStorage.getItem('filamu.deviceId') ?? '',
      },
    });
    return response.status;
  });
}

describe('Opening the app offline', () => {
  it('keeps the person signed in on every screen, and the session still works once back online', async () => {
    const user = newUser();
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await signedInWithServiceWorker(page, user);
      await context.setOffline(true);

      await page.goto('/dashboard');
      await page.getByRole('heading', { name: `Welcome, ${user.fullName}` }).waitFor();
      await page.getByText('You are offline').first().waitFor();

      await page.goto('/profile');
      await page.getByRole('heading', { name: 'My Profile' }).waitFor();
      expect(await page.getByLabel('Full Name').inputValue()).toBe(user.fullName);

      await page.goto('/subscription');
      await page.getByRole('heading', { name: 'Choose your plan' }).waitFor();
      await page.getByRole('link', { name: 'Profile' }).waitFor();

      await page.goto('/movies');
      await page.getByRole('heading', { name: 'Movie Library' }).waitFor();

      for (const path of ['/dashboard', '/profile', '/subscription', '/movies']) {
        await page.goto(path);
        await page.locator('#main').waitFor();
        expect(new URL(page.url()).pathname).toBe(path);
      }
      expect((await savedSession(page))?.profile?.fullName).toBe(user.fullName);

      await context.setOffline(false);
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: `Welcome, ${user.fullName}` }).waitFor();
      expect(await profileStatus(page)).toBe(200);
      expect(new URL(page.url()).pathname).toBe('/dashboard');
    } finally {
      await context.close();
    }
  });

  it('with a session saved before profiles were kept, waits for the network instead of signing out', async () => {
    const user = newUser();
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await signedInWithServiceWorker(page, user);
      // Offline first, with nothing in flight: a profile refresh landing later would save the profile again.
      await page.waitForLoadState('networkidle');
      await context.setOffline(true);
      // The earlier format: token and kind only.
      await page.evaluate(() => {
        const saved = JSON.parse(localStorage.getItem('filamu.session')!) as { token: string; kind: string };
        localStorage.setItem('filamu.session', JSON.stringify({ token: saved.token, kind: saved.kind }));
      });
      await page.goto('/dashboard');
      await page.getByRole('heading', { name: "Can't reach Filamu" }).waitFor();
      await page.getByText('You are still signed in.').waitFor();

      // Back online, the account loads by itself and its profile is saved for next time.
      await context.setOffline(false);
      await page.getByRole('heading', { name: `Welcome, ${user.fullName}` }).waitFor();
      expect((await savedSession(page))?.profile?.fullName).toBe(user.fullName);
    } finally {
      await context.close();
    }
  });

  it('still signs out on a real 401 (signed in on another device), and stays signed out offline', async () => {
    const user = newUser();
    const first = await newContext(browser);
    const second = await newContext(browser);
    try {
      const page1 = await first.newPage();
      await signedInWithServiceWorker(page1, user);

      const page2 = await second.newPage();
      await login(page2, user.email, user.password);
      await page2.waitForURL('**/dashboard');

      await page1.reload();
      await page1.waitForURL('**/login');
      await page1.getByRole('heading', { name: 'Welcome back' }).waitFor();
      expect(await savedSession(page1)).toBeNull();

      await first.setOffline(true);
      await page1.goto('/dashboard');
      await page1.waitForURL('**/login');
    } finally {
      await first.close();
      await second.close();
    }
  });
});
