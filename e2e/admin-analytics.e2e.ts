import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formatDate } from '../shared/src/format.ts';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser } from './support/browser.ts';
import {
  adminSession,
  completeDownload,
  createPlan,
  mp4Bytes,
  registerUser,
  type SeededMovie,
  type SeededPlan,
  type SeededUser,
  signInContext,
  subscribeUser,
  uniqueStamp,
  uploadMovie,
} from './support/seed.ts';

/**
 * Issue 10, Analytics and Overview: real figures seeded through the API (movies, users, completed downloads, a
 * sandbox mobile-money payment), then read back off the admin's screens. Other e2e files share the server, so
 * figures are compared with what the API says after seeding, and with the seeded deltas where they are ours.
 */

interface Analytics {
  totalDownloads: number;
  totalSubscribers: number;
  activeSubscribers: number;
  newSubscribersThisWeek: number;
  totalMovies: number;
  daily: { date: string; downloads: number; revenueUgx: number; newSubscribers: number }[];
  phoneToPhone: { films: number };
}

/**
 * The screenshots of docs/screenshots/issue-10 are retaken with `UPDATE_SCREENSHOTS=1`; any other run writes them to
 * the git-ignored test-results/, so running the tests never dirties the tree.
 */
const SHOTS = fileURLToPath(
  new URL(
    process.env.UPDATE_SCREENSHOTS ? '../docs/screenshots/issue-10/' : '../test-results/issue-10/',
    import.meta.url,
  ),
);
const PRICE = 12_000;
let browser: Browser;
let before: Analytics;
let after: Analytics;
let plan: SeededPlan;
let movies: SeededMovie[];

const analytics = async (days = 30) => apiCall<Analytics>(`/admin/analytics?days=${days}`, await adminSession());

/** Pays for `plan` as `user` through the API with the embedded DPO sandbox (a number ending 5 pays). */
async function payWithSandbox(user: SeededUser): Promise<void> {
  const as = { token: user.token, deviceId: user.deviceId };
  const payment = await apiCall<{ transaction_id: string; dpo_token: string }>('/payments/initiate', {
    method: 'POST',
    ...as,
    body: { subscription_plan_id: plan.id },
  });
  await apiCall('/payments/charge-mobile', {
    method: 'POST',
    ...as,
    body: { transaction_id: payment.transaction_id, phoneNumber: '0772000005', mno: 'MTNmobilemoney' },
  });
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const { status } = await apiCall<{ status: string }>(`/payments/verify/${payment.dpo_token}`, as);
    if (status === 'completed') return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('The sandbox payment did not complete within 30 s.');
}

beforeAll(async () => {
  browser = await launchBrowser();
  before = await analytics();
  plan = await createPlan({ price_ugx: PRICE });
  const stamp = uniqueStamp();
  movies = [];
  for (const name of ['Alpha', 'Bravo', 'Charlie']) {
    movies.push(
      await uploadMovie(mp4Bytes(), { title: `Chart ${name} ${stamp}`, category: 'Kinayuganda', planIds: [plan.id] }),
    );
  }
  const users = [await registerUser(), await registerUser(), await registerUser(), await registerUser()];
  await payWithSandbox(users[0]!);
  for (const user of users.slice(1)) await subscribeUser(user.id, plan.id);
  // Alpha four times, Bravo three, Charlie twice: nine completed downloads.
  for (const [i, user] of users.entries()) {
    await completeDownload(user, movies[0]!);
    if (i < 3) await completeDownload(user, movies[1]!);
    if (i < 2) await completeDownload(user, movies[2]!);
  }
  after = await analytics();
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

async function openAdmin(
  path: string,
  theme: 'light' | 'dark' = 'light',
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport });
  await signInContext(context, await adminSession(), theme);
  const page = await context.newPage();
  await page.goto(path);
  return { context, page };
}

/** A StatCard: the rounded box holding the label (and the figure under it). */
const card = (page: Page, label: string) =>
  page
    .locator('main div.rounded-2xl')
    .filter({ has: page.getByText(label, { exact: true }) })
    .last();

/** The rows of a chart's data table (the accessible alternative), as [label, value] pairs. */
async function seriesRows(figure: Locator): Promise<[string, string][]> {
  const rows = figure.locator('tbody tr');
  await rows.first().waitFor({ state: 'attached' });
  return rows.evaluateAll((trs) =>
    trs.map((tr) => [tr.querySelector('th')!.textContent!.trim(), tr.querySelector('td')!.textContent!.trim()]),
  ) as Promise<[string, string][]>;
}

const sandboxBanner = (page: Page) =>
  page.getByRole('region', { name: 'Payments sandbox' }).getByText('SANDBOX — no real money.');

const count = (n: number) => new Intl.NumberFormat('en-UG').format(n);

describe('Admin analytics', () => {
  it('seeding moved the figures the way it should', () => {
    expect(after.totalDownloads - before.totalDownloads).toBe(9);
    expect(after.totalMovies - before.totalMovies).toBe(3);
    expect(after.newSubscribersThisWeek - before.newSubscribersThisWeek).toBe(4);
    expect(after.activeSubscribers - before.activeSubscribers).toBe(4);
    expect(after.daily.at(-1)!.revenueUgx - before.daily.at(-1)!.revenueUgx).toBe(PRICE);
  });

  it('shows the cards, Top Downloaded in order and today in the charts; the range lives in the URL', async () => {
    const { context, page } = await openAdmin('/admin/analytics');
    try {
      await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
      await expect.poll(() => card(page, 'Total Downloads').textContent()).toContain(count(after.totalDownloads));
      expect(await card(page, 'Active Subscribers').textContent()).toContain(count(after.activeSubscribers));
      expect(await card(page, 'New This Week').textContent()).toContain(count(after.newSubscribersThisWeek));

      // Top Downloaded: ours in order, with their ids and counts.
      const top = page.getByRole('region', { name: 'Top Downloaded Movies' });
      await top.getByText(movies[0]!.title).waitFor();
      const titles = await top.locator('tbody tr td:nth-child(2)').allTextContents();
      const ours = titles.filter((t) => movies.some((m) => m.title === t));
      expect(ours).toEqual(movies.map((m) => m.title));
      const alpha = top.locator('tbody tr', { hasText: movies[0]!.title });
      expect(await alpha.textContent()).toContain(movies[0]!.id);
      expect((await alpha.locator('td').last().textContent())?.trim()).toBe('4');

      // Licences issued in the range: by way and revoked, as the API counts them, and the films licensed most.
      const licences = page.getByRole('region', { name: 'Licences issued' });
      await licences.getByText('In the last 30 days. A licence lets one phone play one film;').waitFor();
      const figures = await licences
        .locator('dl > div')
        .evaluateAll((boxes) => boxes.map((box) => box.querySelector('dt')!.textContent!.trim()));
      expect(figures).toEqual(['Downloads', 'Re-downloads', 'Transfers', 'Revoked']);
      await licences.getByRole('table', { name: 'Films with the most licences issued in the range' }).waitFor();

      // Films moved phone to phone: the API's counts, and what they saved at the operator's price.
      const moved = page.getByRole('region', { name: 'Films moved phone to phone' });
      const movedFigures = await moved
        .locator('dl > div')
        .evaluateAll((boxes) =>
          boxes.map((box) => [box.querySelector('dt')!.textContent, box.querySelector('dd')!.textContent]),
        );
      expect(movedFigures.map(([label]) => label)).toEqual([
        'Films received from a phone',
        'From agents’ phones',
        'Data saved',
        'Saved subscribers',
        'Plans bought after a received film',
      ]);
      expect(movedFigures[0]![1]).toBe(count(after.phoneToPhone.films));

      // Downloads per day: 30 points, today's with today's count; the SVG draws bars.
      const downloads = page.getByRole('figure', { name: 'Downloads per day' });
      const today = after.daily.at(-1)!;
      const rows = await seriesRows(downloads);
      expect(rows).toHaveLength(30);
      expect(rows.at(-1)).toEqual([formatDate(today.date), count(today.downloads)]);
      expect(today.downloads).toBeGreaterThanOrEqual(9);
      expect(await downloads.locator('svg .recharts-bar-rectangle').count()).toBeGreaterThan(0);

      // Revenue per day: today's completed payments, en-UG separators.
      const revenue = page.getByRole('figure', { name: 'Revenue per day (UGX)' });
      expect((await seriesRows(revenue)).at(-1)).toEqual([formatDate(today.date), count(today.revenueUgx)]);
      await revenue.getByText(/^UGX [\d,]+$/).waitFor();

      // New subscribers per week: this week's bar has at least our four.
      const weekly = page.getByRole('figure', { name: 'New subscribers per week' });
      const thisWeek = (await seriesRows(weekly)).at(-1)!;
      expect(Number(thisWeek[1].replace(/,/g, ''))).toBeGreaterThanOrEqual(4);

      // "Show as table" reveals the same rows to sighted users.
      await downloads.getByRole('button', { name: 'Show as table' }).click();
      await downloads.getByRole('table').getByText(formatDate(today.date)).waitFor({ state: 'visible' });
      await downloads.getByRole('button', { name: 'Hide table' }).waitFor();

      await page.getByRole('button', { name: '7 days' }).click();
      await page.waitForURL(/\?days=7$/);
      await expect.poll(async () => (await seriesRows(downloads)).length).toBe(7);
      expect(await page.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');

      await page.getByRole('button', { name: '90 days' }).click();
      await page.waitForURL(/\?days=90$/);
      await expect.poll(async () => (await seriesRows(downloads)).length).toBe(90);
      expect((await seriesRows(downloads)).at(-1)).toEqual([formatDate(today.date), count(today.downloads)]);

      // A reload keeps the range.
      await page.reload();
      await expect.poll(async () => (await seriesRows(downloads)).length).toBe(90);
    } finally {
      await context.close();
    }
  });

  it('says when a range has nothing to draw, and explains a failure with a Retry that works', async () => {
    const context = await browser.newContext({ baseURL: baseURL(), viewport: { width: 1280, height: 900 } });
    await signInContext(context, await adminSession());
    const page = await context.newPage();
    try {
      const zeros = {
        ...after,
        daily: after.daily.map((d) => ({ ...d, downloads: 0, revenueUgx: 0, newSubscribers: 0 })),
      };
      await page.route('**/api/admin/analytics?*', (route) => route.fulfill({ json: zeros }));
      await page.route('**/api/admin/download-stats', (route) => route.fulfill({ json: { stats: [] } }));
      await page.goto('/admin/analytics');
      await page.getByText('No completed downloads in the last 30 days.').waitFor();
      await page.getByText('No completed payments in the last 30 days.').waitFor();
      await page.getByText('No new subscribers in the last 30 days.').waitFor();
      await page
        .getByRole('region', { name: 'Top Downloaded Movies' })
        .getByText('No download data available yet.')
        .waitFor();

      await page.unrouteAll();
      const failure = { error: { code: 'unavailable', message: 'The database is not answering.', requestId: 'r1' } };
      await page.route('**/api/admin/analytics?*', (route) => route.fulfill({ status: 400, json: failure }));
      await page.route('**/api/admin/download-stats', (route) => route.fulfill({ status: 400, json: failure }));
      await page.reload();
      await page.getByText('Failed to load analytics: The database is not answering.').waitFor();
      await page.getByText('Failed to load download stats: The database is not answering.').waitFor();

      await page.unrouteAll();
      for (const what of ['analytics', 'download stats']) {
        const alert = page.getByRole('alert').filter({ hasText: `Failed to load ${what}` });
        await alert.getByRole('button', { name: 'Retry' }).click();
      }
      await page
        .getByRole('figure', { name: 'Downloads per day' })
        .locator('svg .recharts-bar-rectangle')
        .first()
        .waitFor();
      await page.getByRole('region', { name: 'Top Downloaded Movies' }).getByText(movies[0]!.title).waitFor();
      expect(await page.getByText(/^Failed to load/).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`is accessible and photographed in ${theme} mode`, async () => {
      const { context, page } = await openAdmin('/admin/analytics?days=30', theme);
      try {
        await page.getByRole('figure', { name: 'Downloads per day' }).locator('svg').first().waitFor();
        await page.getByRole('region', { name: 'Top Downloaded Movies' }).getByText(movies[0]!.title).waitFor();
        // The e2e server runs the DPO sandbox (ALLOW_PAYMENT_SANDBOX): every admin screen says so.
        await sandboxBanner(page).waitFor();
        await expectAccessible(page, `Analytics (${theme})`);
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: `${SHOTS}analytics-${theme}-1280.png`, fullPage: true });

        await page.getByRole('link', { name: 'Overview' }).click();
        await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
        await page.getByRole('region', { name: 'Recent Movies' }).getByText(movies[2]!.title).waitFor();
        await sandboxBanner(page).waitFor();
        await expectAccessible(page, `Overview (${theme})`);
      } finally {
        await context.close();
      }
    });
  }

  it('says SANDBOX — no real money on a 360 px phone without widening the page', async () => {
    const { context, page } = await openAdmin('/admin/plans', 'dark', { width: 360, height: 740 });
    try {
      await page.getByRole('heading', { level: 1 }).waitFor();
      await sandboxBanner(page).waitFor();
      const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
    } finally {
      await context.close();
    }
  });

  it('Overview: the cards show the totals and open their tabs; Recent Movies lists the newest five', async () => {
    const { context, page } = await openAdmin('/admin');
    try {
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      const latest = await analytics();
      const cards: [string, number, string][] = [
        ['Total Movies', latest.totalMovies, '/admin/movies'],
        ['Total Downloads', latest.totalDownloads, '/admin/analytics'],
        ['Total Subscribers', latest.totalSubscribers, '/admin/subscribers'],
        ['New This Week', latest.newSubscribersThisWeek, '/admin/subscribers'],
      ];
      for (const [label, value, href] of cards) {
        const link = page.getByRole('link', { name: new RegExp(`^${label}`) });
        await expect.poll(() => link.textContent()).toContain(count(value));
        expect(await link.getAttribute('href')).toBe(href);
      }

      const recent = page.getByRole('region', { name: 'Recent Movies' });
      await recent.getByText(movies[2]!.title).waitFor();
      expect(await recent.locator('li').count()).toBeLessThanOrEqual(5);
      const charlie = recent.locator('li', { hasText: movies[2]!.title });
      expect(await charlie.textContent()).toContain('Kinayuganda');
      expect(await charlie.textContent()).toMatch(/\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}/);

      await page.getByRole('link', { name: /^Total Downloads/ }).click();
      await page.waitForURL('**/admin/analytics');
      await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
