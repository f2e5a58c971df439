import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/axe.ts';
import { catalogue, filled } from './support/catalogue.ts';
import { baseURL, launchBrowser, newUser } from './support/browser.ts';
import { apiCall } from './support/api.ts';

/**
 * Filamu in Luganda (decisions 0257, 0258): a phone whose browser speaks Luganda gets the landing, the header and the
 * sign-in screens in Luganda, `<html lang="lg">`, nothing wider than a 360 px phone, axe clean in both themes; the
 * switch to English is kept on the phone; the Luganda landing is prerendered with hreflang both ways.
 */
const lugandaMessages = catalogue('lg');
const englishMessages = catalogue('en');
const lg = (id: string) => filled(lugandaMessages, id);
const en = (id: string) => filled(englishMessages, id);

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function withContext<T>(
  options: { locale?: string; colorScheme?: 'light' | 'dark'; javaScriptEnabled?: boolean; width?: number },
  run: (context: BrowserContext) => Promise<T>,
): Promise<T> {
  const { width = 360, ...rest } = options;
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width, height: 740 }, ...rest });
  try {
    return await run(context);
  } finally {
    await context.close();
  }
}

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return errors;
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

describe('Filamu in Luganda', () => {
  it('the Luganda landing is prerendered in Luganda, with hreflang both ways', async () => {
    await withContext({ javaScriptEnabled: false }, async (context) => {
      const page = await context.newPage();
      await page.goto('/lg');
      await page.getByRole('heading', { name: lg('landing.why.title') }).waitFor();
      expect(await htmlLang(page)).toBe('lg');
      const alternates = await page
        .locator('link[rel="alternate"][hreflang]')
        .evaluateAll((links) => links.map((l) => `${l.getAttribute('hreflang')} ${l.getAttribute('href')}`));
      expect(alternates).toEqual(['en /', 'lg /lg', 'x-default /']);

      await page.goto('/');
      expect(await htmlLang(page)).toBe('en');
      await page.getByRole('heading', { name: en('landing.why.title') }).waitFor();
      expect(await page.locator('link[rel="alternate"][hreflang="lg"]').getAttribute('href')).toBe('/lg');
    });
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`a Luganda browser gets the landing in Luganda (${colorScheme}): 360 px, no sideways scroll, axe clean`, async () => {
      await withContext({ locale: 'lg', colorScheme }, async (context) => {
        const page = await context.newPage();
        const errors = collectErrors(page);
        await page.goto('/');
        await page.waitForURL('**/lg');
        await page.getByRole('heading', { name: lg('landing.why.title') }).waitFor();
        await page
          .getByRole('link', { name: lg('nav.getStarted') })
          .first()
          .waitFor();
        expect(await htmlLang(page)).toBe('lg');
        expect(await pageWidth(page)).toBeLessThanOrEqual(360);
        await expectAccessible(page, `landing in Luganda, ${colorScheme}`);
        // The switch, open: both languages named in themselves, and the feedback links naming the screen.
        await page.locator('[data-language-switch] summary').click();
        await page.locator('[data-language-option="en"]').waitFor();
        expect(await page.locator('[data-language-option="lg"]').getAttribute('aria-pressed')).toBe('true');
        const feedback = page.locator('[data-language-switch]').getByRole('link', { name: 'WhatsApp', exact: true });
        const whatsapp = await feedback.getAttribute('href');
        expect(decodeURIComponent(whatsapp ?? '')).toContain('/lg');
        expect(await pageWidth(page)).toBeLessThanOrEqual(360);
        await expectAccessible(page, `language switch open, ${colorScheme}`);

        await page.goto('/login');
        await page.getByRole('heading', { name: lg('login.title') }).waitFor();
        expect(await pageWidth(page)).toBeLessThanOrEqual(360);
        await expectAccessible(page, `login in Luganda, ${colorScheme}`);
        await page.goto('/register');
        await page.getByRole('heading', { name: lg('register.title') }).waitFor();
        expect(await pageWidth(page)).toBeLessThanOrEqual(360);
        await expectAccessible(page, `register in Luganda, ${colorScheme}`);
        expect(errors).toEqual([]);
      });
    });
  }

  it('registers and signs in in Luganda; the account keeps Luganda', async () => {
    const user = newUser();
    await withContext({ locale: 'lg' }, async (context) => {
      const page = await context.newPage();
      await page.goto('/register');
      await page.getByLabel(lg('register.fullName')).fill(user.fullName);
      await page.getByLabel(lg('form.email'), { exact: true }).fill(user.email);
      await page.getByLabel(lg('register.phone')).fill(user.phone);
      await page.getByLabel(lg('form.password'), { exact: true }).fill('short');
      await page.getByRole('button', { name: lg('register.submit') }).click();
      // The form's own check, in Luganda.
      await page.getByText(lg('form.password.min').replace('{min}', '8')).waitFor();
      await page.getByLabel(lg('form.password'), { exact: true }).fill(user.password);
      await page.getByRole('button', { name: lg('register.submit') }).click();
      await page.getByRole('button', { name: lg('profile.confirm.skip') }).click();
      await page.waitForURL('**/subscription');
    });
    const deviceId = randomUUID();
    const { token } = await apiCall<{ token: string }>('/auth/login', {
      method: 'POST',
      deviceId,
      body: { identifier: user.email, password: user.password, currentDeviceId: deviceId },
    });
    const profile = await apiCall<{ language: string }>('/auth/profile', { token, deviceId });
    expect(profile.language).toBe('lg');

    await withContext({ locale: 'lg' }, async (context) => {
      const page = await context.newPage();
      await page.goto('/login');
      await page.getByLabel(lg('login.identifier')).fill(user.email);
      await page.getByLabel(lg('form.password'), { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: lg('action.signIn'), exact: true }).click();
      // The server's message, in the language the phone shows.
      await page.getByRole('alert').getByText(lg('login.failed')).waitFor();
      expect(await page.getByRole('alert').textContent()).not.toContain('Invalid credentials');
      await page.getByLabel(lg('form.password'), { exact: true }).fill(user.password);
      await page.getByRole('button', { name: lg('action.signIn'), exact: true }).click();
      await page.waitForURL('**/dashboard');
      await page
        .getByRole('link', { name: lg('nav.movies') })
        .first()
        .waitFor();
      expect(await htmlLang(page)).toBe('lg');
    });
  });

  it('an English phone opening a link to /lg stays in Luganda, on the next screen too', async () => {
    await withContext({ locale: 'en-US' }, async (context) => {
      const page = await context.newPage();
      await page.goto('/lg');
      await page.getByRole('heading', { name: lg('landing.why.title') }).waitFor();
      // Give the app time to switch, were it going to.
      await page.waitForLoadState('networkidle');
      expect(page.url()).toBe(`${baseURL()}/lg`);
      expect(await htmlLang(page)).toBe('lg');
      await page.goto('/login');
      await page.getByRole('heading', { name: lg('login.title') }).waitFor();
    });
  });

  it('the switch to English is kept on the phone after a reload', async () => {
    await withContext({ locale: 'lg' }, async (context) => {
      const page = await context.newPage();
      await page.goto('/');
      await page.waitForURL('**/lg');
      await page.getByRole('heading', { name: lg('landing.why.title') }).waitFor();
      await page.locator('[data-language-switch] summary').click();
      await page.locator('[data-language-option="en"]').click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('heading', { name: en('landing.why.title') }).waitFor();
      expect(await htmlLang(page)).toBe('en');

      await page.reload();
      await page.getByRole('heading', { name: en('landing.why.title') }).waitFor();
      // Give the app time to switch, were it going to.
      await page.waitForLoadState('networkidle');
      expect(page.url()).toBe(`${baseURL()}/`);
      expect(await htmlLang(page)).toBe('en');
      expect(await page.getByRole('heading', { name: en('landing.why.title') }).isVisible()).toBe(true);

      await page.goto('/login');
      await page.getByRole('heading', { name: en('login.title') }).waitFor();
    });
  });
});
