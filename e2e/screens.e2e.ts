import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser, newContext } from './support/browser.ts';
import { smallMovie } from './support/downloads.ts';
import {
  adminSession,
  createAgent,
  createPlan,
  registerUser,
  signInContext,
  subscribeUser,
  uploadMovie,
  type ApiSession,
} from './support/seed.ts';

/**
 * Every screen as each kind of person finds it: no serious or critical axe violation in light and dark, nothing
 * wider than a 360 px phone, a title per route, and focus on the new page's heading after navigating.
 */
type Role = 'guest' | 'subscriber' | 'agent' | 'admin';
type Theme = 'light' | 'dark';

let browser: Browser;
let planId: string;
let movieId: string;
const sessions: Partial<Record<Exclude<Role, 'guest'>, { session: ApiSession; kind: 'user' | 'agent' }>> = {};

beforeAll(async () => {
  browser = await launchBrowser();
  const admin = await adminSession();
  planId = (await createPlan({ plan_name: `Sweep ${Date.now().toString(36)}` })).id;
  movieId = (
    await uploadMovie(smallMovie('Sweep'), {
      title: `Sweep Movie ${Date.now().toString(36)}`,
      category: 'Kinayuganda',
      planIds: [planId],
    })
  ).id;
  const subscriber = await registerUser();
  await subscribeUser(subscriber.id, planId);
  sessions.subscriber = { session: subscriber, kind: 'user' };
  sessions.agent = { session: await createAgent(), kind: 'agent' };
  sessions.admin = { session: admin, kind: 'user' };
});

afterAll(async () => {
  await browser?.close();
});

const ROUTES: Record<Role, () => string[]> = {
  guest: () => [
    '/',
    '/login',
    '/register',
    '/terms',
    '/refund-cancellation',
    '/privacy-policy',
    '/dmca-policy',
    '/contact-us',
    '/checkout/failed',
    '/no-such-page',
  ],
  subscriber: () => [
    '/',
    '/dashboard',
    '/movies',
    `/movies/${movieId}`,
    '/downloads',
    '/downloads/send',
    '/downloads/receive',
    '/profile',
    '/subscription',
    `/checkout/${planId}`,
  ],
  agent: () => [
    '/',
    '/dashboard',
    '/movies',
    `/movies/${movieId}`,
    '/downloads',
    '/downloads/send',
    '/downloads/receive',
    '/profile',
    '/subscription',
  ],
  admin: () => [
    '/',
    '/admin',
    '/admin/movies',
    '/admin/subscribers',
    '/admin/payments',
    '/admin/analytics',
    '/admin/plans',
    '/admin/agents',
    '/dashboard',
    '/movies',
    '/profile',
    '/subscription',
  ],
};

async function contextFor(role: Role, theme: Theme): Promise<BrowserContext> {
  const context = await newContext(browser);
  const signedIn = role === 'guest' ? null : sessions[role]!;
  if (signedIn) await signInContext(context, signedIn.session, theme, signedIn.kind);
  else await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
  return context;
}

/** Waits until the screen shows its page heading and has stopped loading. */
async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await page.waitForFunction(() => !document.querySelector('.animate-spin, .animate-pulse'), undefined, {
    timeout: 10_000,
  });
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('Every screen, for every kind of person', () => {
  for (const role of ['guest', 'subscriber', 'agent', 'admin'] as const) {
    for (const theme of ['light', 'dark'] as const) {
      it(`${role}, ${theme}: accessible and no sideways scroll at 360 px`, { timeout: 180_000 }, async () => {
        const context = await contextFor(role, theme);
        const page = await context.newPage();
        await page.setViewportSize({ width: 360, height: 740 });
        try {
          for (const path of ROUTES[role]()) {
            await page.goto(path);
            await settled(page);
            expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
              theme === 'dark',
            );
            expect(await pageWidth(page), `${path} is wider than the phone`).toBeLessThanOrEqual(360);
            // Every place in the bottom bar shows its whole name.
            const cut = await page.evaluate(() =>
              [...document.querySelectorAll<HTMLElement>('[data-bottom-nav] a span')]
                .filter((label) => label.scrollWidth > label.clientWidth)
                .map((label) => label.textContent),
            );
            expect(cut, `${path}: cut names in the bottom bar`).toEqual([]);
            const title = await page.title();
            if (path === '/') expect(title).toBe('Filamu — Movie downloads for Uganda');
            else expect(title, `${path} has a title of its own`).toMatch(/^.+ · Filamu$/);
            await expectAccessible(page, `${role} ${theme} ${path}`);
          }
          if (role !== 'guest') expect(new URL(page.url()).pathname).not.toBe('/login');
        } finally {
          await context.close();
        }
      });
    }
  }

  it('desktop (1280 px): the signed-in header lists the same places, in the same order, on every screen', async () => {
    const context = await contextFor('admin', 'light');
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    try {
      for (const path of ROUTES.admin().slice(1)) {
        await page.goto(path);
        await settled(page);
        const nav = page.getByRole('navigation', { name: 'Main' });
        expect(await nav.getByRole('link').allInnerTexts(), path).toEqual([
          'Dashboard',
          'Movies',
          'Downloads',
          'Profile',
          'Admin',
        ]);
        expect(await pageWidth(page)).toBeLessThanOrEqual(1280);
        const cut = await nav.evaluate((el) =>
          [...el.querySelectorAll<HTMLElement>('a span')].some((label) => label.scrollWidth > label.clientWidth),
        );
        expect(cut, `${path}: a cut name in the header`).toBe(false);
        await expectAccessible(page, `admin desktop ${path}`);
      }
    } finally {
      await context.close();
    }
  });
});

describe('Finding one’s way', () => {
  it('names every route in the title and moves focus to the new page’s heading, by click and by keyboard', async () => {
    const context = await contextFor('subscriber', 'light');
    const page = await context.newPage();
    try {
      await page.goto('/dashboard');
      await settled(page);
      expect(await page.title()).toBe('Dashboard · Filamu');

      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Movies' }).click();
      await page.waitForURL('**/movies');
      await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Movie Library');
      expect(await page.title()).toBe('Movie Library · Filamu');
      // The current place is marked for screen readers too.
      expect(await nav.getByRole('link', { name: 'Movies' }).getAttribute('aria-current')).toBe('page');

      // Keyboard only: from the heading, Tab through the header's places to Downloads and press Enter.
      await nav.getByRole('link', { name: 'Downloads' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL('**/downloads');
      await page.waitForFunction(() => document.activeElement?.textContent === 'My Downloads');
      expect(await page.title()).toBe('My Downloads · Filamu');

      await page.goBack();
      await page.waitForFunction(() => document.activeElement?.textContent === 'Movie Library');
      expect(await page.title()).toBe('Movie Library · Filamu');
    } finally {
      await context.close();
    }
  });

  it('sends the short addresses people type to the real policy and contact pages', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      for (const [short, real, heading] of [
        ['/privacy', '/privacy-policy', 'Privacy Policy'],
        ['/refund', '/refund-cancellation', 'Refund and Cancellation Policy'],
        ['/dmca', '/dmca-policy', 'DMCA Policy'],
        ['/contact', '/contact-us', 'Contact Us'],
      ] as const) {
        const response = await page.goto(short);
        expect(response?.status()).toBe(200);
        await page.waitForURL(`${baseURL()}${real}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        expect(await page.title()).toBe(`${heading} · Filamu`);
      }
    } finally {
      await context.close();
    }
  });

  it('says a registration error once, above the form, and nothing covers Create Account', async () => {
    const taken = await registerUser();
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await page.goto('/register');
      await page.getByLabel('Full Name').fill('Second Person');
      await page.getByLabel('Email', { exact: true }).fill(taken.email);
      await page.getByLabel('Phone Number').fill('0771234567');
      await page.getByLabel('Password', { exact: true }).fill('movie-night-2026');
      const create = page.getByRole('button', { name: 'Create Account' });
      await create.click();
      await page.getByRole('alert').filter({ hasText: 'Registration Error' }).waitFor();
      expect(await page.getByTestId('toast').count()).toBe(0);
      const box = (await create.boundingBox())!;
      const onTop = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent, {
        x: box.x + box.width / 2,
        y: box.y + box.height / 2,
      });
      expect(onTop).toBe('Create Account');
    } finally {
      await context.close();
    }
  });
});
