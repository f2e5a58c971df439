import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser } from './support/browser.ts';
import {
  adminSession,
  completeDownload,
  createPlan,
  createSellablePlan,
  mp4Bytes,
  registerUser,
  signInContext,
  stockMovie,
  subscribeUser,
  uniqueStamp,
  uploadMovie,
  type SeededPlan,
  type SeededUser,
} from './support/seed.ts';

/**
 * Plans that tell the truth (decisions 0176–0178): the exact end and the time left before payment, the warning near
 * the end, the English rule on every card, no English re-lock after an upload, and every date as `1 Feb 2027`.
 */
const HOUR = 3_600_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ENGLISH_RULE_SHORT = 'English movies unlock after you download every Kinayuganda movie in the plan.';

/** Kampala wall time `hours` from now, to the minute, as the admin types it: `YYYY-MM-DDThh:mm`. */
function kampalaLocalIn(hours: number): string {
  return new Date(Date.now() + hours * HOUR + 3 * HOUR).toISOString().slice(0, 16);
}

/** How a person reads that moment, worked out here by hand: `25 Nov 2026, 2:00 AM`. */
function readable(local: string): string {
  const [date, time] = local.split('T') as [string, string];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const clock = `${hour % 12 === 0 ? 12 : hour % 12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
  return `${day} ${MONTHS[month - 1]} ${year}, ${clock}`;
}

let browser: Browser;
const stamp = uniqueStamp();
/** Ends in 12 hours and a half: inside the default 72-hour warning, outside the 6-hour cut-off. */
let closing: SeededPlan;
let closingEnd: string;
/** Ends in 5 hours: past the default cut-off, so not sold. */
let closed: SeededPlan;

beforeAll(async () => {
  browser = await launchBrowser();
  closingEnd = kampalaLocalIn(12.5);
  // With an English film, so its card and checkout tell the Kinayuganda-first rule (decision 0211).
  const englishFilm = await uploadMovie(mp4Bytes(), { title: `Lion ${stamp}`, category: 'English', vj: 'Studio' });
  closing = await createPlan({
    movieIds: [(await stockMovie()).id, englishFilm.id],
    plan_name: `Last Night ${stamp}`,
    price_ugx: 5000,
    global_expiry_date: closingEnd,
    display_order: -50_000,
  });
  closed = await createSellablePlan({ plan_name: `Too Late ${stamp}`, global_expiry_date: kampalaLocalIn(5) });
});

afterAll(async () => {
  await browser?.close();
});

async function open(
  user: SeededUser,
  theme: 'light' | 'dark' = 'light',
  width = 390,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width, height: 844 } });
  await signInContext(context, user, theme);
  return { context, page: await context.newPage() };
}

const planCard = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });

async function fitsWidth(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${label}: wider than the screen`).toBeLessThanOrEqual(innerWidth);
}

describe('plans that tell the truth', () => {
  it('the card and checkout show the exact end, the hours left and the warning for a plan ending in 12 hours', async () => {
    const user = await registerUser();
    const { context, page } = await open(user, 'light', 360);
    try {
      await page.goto('/subscription');
      const card = planCard(page, closing.plan_name);
      const end = readable(closingEnd);
      await card.getByText(`Access until ${end} (Kampala) · 12 hours left`).waitFor();
      await card.getByText('Little time left.').waitFor();
      await card
        .getByText(`This plan ends in 12 hours, at ${end} for everyone on it: UGX 5,000 buys 12 hours of access.`)
        .waitFor();
      await card.getByText(ENGLISH_RULE_SHORT).waitFor();
      // The plan in its last hours is not offered at all.
      expect(await page.getByRole('heading', { name: closed.plan_name }).count()).toBe(0);
      // The button is described by the warning and the rule, for screen readers.
      const button = card.getByRole('button', { name: 'Subscribe Now' });
      const described = await button.evaluate((element) =>
        (element.getAttribute('aria-describedby') ?? '')
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
      expect(described).toContain('This plan ends in 12 hours');
      expect(described).toContain(ENGLISH_RULE_SHORT);
      await fitsWidth(page, '/subscription at 360 px');

      await button.click();
      await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
      await page.getByText(`Access until ${end} (Kampala) · 12 hours left`).waitFor();
      await page.getByText(`at ${end} for everyone on it`).waitFor();
      await page
        .getByText('English movies unlock once you have downloaded every Kinayuganda movie in your plan.', {
          exact: false,
        })
        .waitFor();
      await page
        .getByText(`You will be charged UGX 5,000 once with mobile money. Access until ${end} (Kampala).`)
        .waitFor();
      await fitsWidth(page, '/checkout at 360 px');
      await expectAccessible(page, 'checkout of a plan near its end');
    } finally {
      await context.close();
    }
  });

  it('says the English rule on the cards of plans with English films only, in dark mode too; a far plan carries no warning', async () => {
    const far = await createSellablePlan({ plan_name: `Far Away ${stamp}`, global_expiry_date: '2031-02-01T09:00' });
    const user = await registerUser();
    const { context, page } = await open(user, 'dark');
    try {
      await page.goto('/subscription');
      const card = planCard(page, far.plan_name);
      // Whole hours only when there are some, "1 hour" in the singular: the time of day the test runs decides which.
      await card.getByText(/^Access until 1 Feb 2031, 9:00 AM \(Kampala\) · \d+ days( \d+ hours?)? left$/).waitFor();
      expect(await card.getByText('Little time left.').count()).toBe(0);
      // Its only film is Kinayuganda: no rule about English on it. The plan with an English film says it.
      expect(await card.getByText(ENGLISH_RULE_SHORT).count()).toBe(0);
      await planCard(page, closing.plan_name).getByText(ENGLISH_RULE_SHORT).waitFor();
      await expectAccessible(page, '/subscription (dark)');
    } finally {
      await context.close();
    }
  });

  it('keeps English unlocked after the admin uploads another Kinayuganda movie', async () => {
    const plan = await createPlan({ plan_name: `Kept ${stamp}` });
    const first = await uploadMovie(mp4Bytes(), {
      title: `Ekitabo ${stamp}`,
      category: 'Kinayuganda',
      planIds: [plan.id],
    });
    const english = await uploadMovie(mp4Bytes(), {
      title: `River ${stamp}`,
      category: 'English',
      vj: 'VJ Junior',
      planIds: [plan.id],
    });
    const user = await registerUser();
    await subscribeUser(user.id, plan.id);
    await completeDownload(user, first);
    // The admin adds a Kinayuganda movie after English unlocked.
    await uploadMovie(mp4Bytes(), { title: `Olugero ${stamp}`, category: 'Kinayuganda', planIds: [plan.id] });

    const { context, page } = await open(user);
    try {
      await page.goto(`/movies?search=${stamp}&category=English`);
      await page.getByRole('heading', { name: 'Movie Library' }).waitFor();
      const movie = page.getByTestId('movie-card').filter({ hasText: english.title });
      await movie.getByRole('button', { name: 'Download Now' }).waitFor();
      expect(await page.getByTestId('english-locked').count()).toBe(0);
      const kept = page.getByTestId('english-kept');
      await kept.getByText('English stays unlocked until your plan ends.').waitFor();
      await kept
        .getByText('1 Kinayuganda movie was added after you unlocked English (1 of 2 downloaded).', { exact: false })
        .waitFor();
      await expectAccessible(page, 'English kept after an upload');
    } finally {
      await context.close();
    }
  });

  it('writes dates through the one formatter: the profile, the dashboard and the admin plan list', async () => {
    const plan = await createSellablePlan({ plan_name: `Dated ${stamp}`, global_expiry_date: '2030-02-01T08:30' });
    const user = await registerUser();
    await subscribeUser(user.id, plan.id);
    const { context, page } = await open(user);
    try {
      await page.goto('/dashboard');
      await page.getByText('1 Feb 2030').first().waitFor();
      expect(await page.getByText('02/01/2030').count()).toBe(0);
    } finally {
      await context.close();
    }
    const admin = await adminSession();
    const adminContext = await browser.newContext({ baseURL: baseURL(), viewport: { width: 1280, height: 800 } });
    await signInContext(adminContext, admin, 'light');
    const adminPage = await adminContext.newPage();
    try {
      await adminPage.goto('/admin/plans');
      await adminPage.getByText('Expires 1 Feb 2030, 8:30 AM (Kampala)').waitFor();
      const sale = adminPage.getByRole('heading', { name: 'Plans near their end' });
      await sale.waitFor();
      expect(await adminPage.getByLabel('Warn buyers this long before the end').inputValue()).toBe('72');
      expect(await adminPage.getByLabel('Stop selling this long before the end').inputValue()).toBe('6');
      // A cut-off longer than the warning is refused in the form, nothing saved.
      await adminPage.getByLabel('Stop selling this long before the end').fill('100');
      await adminPage.getByRole('button', { name: 'Save', exact: true }).click();
      await adminPage.getByText('Start warning at least as many hours before the end as the sale stops.').waitFor();
    } finally {
      await adminContext.close();
    }
  });
});
