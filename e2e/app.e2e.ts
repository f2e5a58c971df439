import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, signInAdmin } from './support/api.ts';
import { baseURL, launchBrowser, login, newContext, newUser, register } from './support/browser.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('Filamu PWA', () => {
  it('registers a new user and lands on the subscription page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await register(page, newUser());
      await page.waitForURL('**/subscription');
      await page.getByRole('heading', { name: 'Choose your plan' }).waitFor();
      await page.getByText('You have been registered and logged in!').waitFor();
    } finally {
      await context.close();
    }
  });

  it('signs the first device out when the same account signs in on a second device', async () => {
    const user = newUser();
    const first = await newContext(browser);
    const second = await newContext(browser);
    try {
      const page1 = await first.newPage();
      await register(page1, user);
      await page1.waitForURL('**/subscription');
      await page1.goto('/dashboard');
      await page1.getByRole('heading', { name: `Welcome, ${user.fullName}` }).waitFor();

      const page2 = await second.newPage();
      await login(page2, user.email, user.password);
      await page2.waitForURL('**/dashboard');
      await page2.getByRole('heading', { name: `Welcome, ${user.fullName}` }).waitFor();

      // The first device's next action finds its session revoked, and says why.
      await page1.reload();
      await page1.waitForURL('**/login');
      await page1.getByRole('heading', { name: 'Welcome back' }).waitFor();
      const toast = page1.getByTestId('toast').filter({ hasText: 'You have been signed out' });
      await toast.getByText('You signed in on another device.', { exact: false }).waitFor();
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('signs an agent in and shows the agent profile', async () => {
    const admin = await signInAdmin();
    const { deviceId } = admin;
    const email = `agent-${Date.now().toString(36)}@filamu.test`;
    const created = await apiCall<{ generatedPassword: string }>('/agents', {
      method: 'POST',
      token: admin.token,
      deviceId,
      body: {
        full_name: 'Test Agent',
        phone: `07${String(Date.now()).slice(-8)}`,
        email,
        send_credentials_via: 'none',
      },
    });

    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await login(page, email, created.generatedPassword, 'agent');
      await page.waitForURL('**/dashboard');
      await page.getByRole('heading', { name: 'Welcome, Test Agent' }).waitFor();
      await page.goto('/profile');
      await page.getByRole('heading', { name: 'Agent Profile' }).waitFor();
      await page.getByText('Active (Agent Access)').waitFor();
    } finally {
      await context.close();
    }
  });

  it('keeps the chosen theme across a reload', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await page.goto('/');
      await page.getByRole('button', { name: 'Dark theme' }).click();
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      await page.reload();
      await page.getByRole('heading', { name: 'Why Filamu?' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
      expect(await page.getByRole('button', { name: 'Dark theme' }).getAttribute('aria-pressed')).toBe('true');
    } finally {
      await context.close();
    }
  });

  it('is installable and opens offline', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await page.goto('/');
      const href = await page.locator('link[rel="manifest"]').getAttribute('href');
      expect(href).toBeTruthy();
      const manifest = (await (await context.request.get(new URL(href!, baseURL()).toString())).json()) as {
        name: string;
        icons: Array<{ sizes: string }>;
      };
      expect(manifest.name).toBe('Filamu');
      const sizes = manifest.icons.map((icon) => icon.sizes);
      expect(sizes).toContain('192x192');
      expect(sizes).toContain('512x512');

      const state = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        const worker = registration.active;
        if (worker && worker.state !== 'activated') {
          await new Promise<void>((resolve) => {
            worker.addEventListener('statechange', () => worker.state === 'activated' && resolve());
          });
        }
        return worker?.state ?? null;
      });
      expect(state).toBe('activated');

      await context.setOffline(true);
      await page.reload();
      await page.getByRole('heading', { name: 'Why Filamu?' }).waitFor();
      await page.getByText('You are offline').first().waitFor();
    } finally {
      await context.close();
    }
  });

  it('shows the 404 page for an unknown path', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await page.goto('/this/page/does-not-exist');
      await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
      await page.getByText("Oops! The page you're looking for doesn't exist or has been moved.").waitFor();
      await page.getByRole('link', { name: 'Take Me Home' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('shows Login Failed for a wrong password', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await login(page, `nobody-${Date.now()}@filamu.test`, 'not-the-password');
      await page.getByText('Login Failed').first().waitFor();
      expect(page.url()).toContain('/login');
    } finally {
      await context.close();
    }
  });
});
