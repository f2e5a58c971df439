import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser } from './support/browser.ts';
import {
  adminSession,
  createAgent,
  createSellablePlan,
  registerUser,
  type SeededPlan,
  type SeededUser,
  signInContext,
  stockMovie,
  subscribeUser,
} from './support/seed.ts';

/**
 * Issue 13/14 §7: the admin's first screen shows money, and the console works on a 390 px phone — no sideways page
 * scroll on any tab, each tab's key actions on screen, and a tab bar that shows it scrolls (decision 0186).
 */
const PHONE = { width: 390, height: 844 };
/** Sandbox numbers: the last digit decides what DPO does (api/src/features/payments/dpo/sandbox.ts). */
const PAYS = '0772000005';
const OVER_OR_UNDERPAID = '0772000004';

let browser: Browser;
let plan: SeededPlan;
let subscriber: SeededUser;
let agentName: string;
const contexts: BrowserContext[] = [];

async function pay(user: SeededUser, phone: string, until: string): Promise<void> {
  const session = { token: user.token, deviceId: user.deviceId };
  const started = await apiCall<{ transaction_id: string; dpo_token: string }>('/payments/initiate', {
    method: 'POST',
    ...session,
    body: { subscription_plan_id: plan.id },
  });
  await apiCall('/payments/charge-mobile', {
    method: 'POST',
    ...session,
    body: { transaction_id: started.transaction_id, phoneNumber: phone, mno: 'MTNmobilemoney' },
  });
  for (let i = 0; i < 60; i++) {
    const { status } = await apiCall<{ status: string }>(`/payments/verify/${started.dpo_token}`, session);
    if (status === until) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`payment never became ${until}`);
}

beforeAll(async () => {
  browser = await launchBrowser();
  await adminSession();
  plan = await createSellablePlan({ price_ugx: 12000 });
  await pay(await registerUser(), PAYS, 'completed');
  await pay(await registerUser(), OVER_OR_UNDERPAID, 'review');
  subscriber = await registerUser();
  await subscribeUser(subscriber.id, plan.id);
  await stockMovie();
  agentName = (await createAgent()).fullName;
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
});

async function adminPhone(theme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: PHONE });
  contexts.push(context);
  await signInContext(context, await adminSession(), theme);
  return context.newPage();
}

async function open(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.waitForFunction(() => !document.querySelector('main .animate-spin, main [aria-busy="true"]'));
}

async function expectNoSidewaysScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${where} is ${scrollWidth}px wide at ${innerWidth}px`).toBeLessThanOrEqual(innerWidth);
}

/** The control is drawn wholly inside the 390 px width (not cut off, not behind a sideways scroll). */
async function expectOnScreen(control: Locator, what: string): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  const box = await control.boundingBox();
  expect(box, `${what} is not drawn`).not.toBeNull();
  expect(box!.x, `${what} starts off-screen`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what} ends off-screen`).toBeLessThanOrEqual(PHONE.width);
}

describe('the console at 390 px', () => {
  it('shows revenue today, this month and the payments waiting for review first, as the API counts them', async () => {
    const admin = await adminSession();
    const figures = await apiCall<{
      revenueTodayUgx: number;
      revenueThisMonthUgx: number;
      paymentsAwaitingReview: number;
    }>('/admin/analytics', admin);
    expect(figures.revenueTodayUgx).toBeGreaterThanOrEqual(12000);
    expect(figures.revenueThisMonthUgx).toBeGreaterThanOrEqual(figures.revenueTodayUgx);
    expect(figures.paymentsAwaitingReview).toBeGreaterThanOrEqual(1);

    const page = await adminPhone('dark');
    await open(page, '/admin', 'Overview');
    const money = page.getByRole('region', { name: 'Money' });
    const ugx = (n: number) => `UGX ${new Intl.NumberFormat('en-UG').format(n)}`;
    const card = (label: string) => money.getByRole('link').filter({ hasText: label });
    await card('Revenue today').getByText(ugx(figures.revenueTodayUgx)).waitFor();
    await card('Revenue this month').getByText(ugx(figures.revenueThisMonthUgx)).waitFor();
    const review = card('Waiting for review');
    await review.getByText(String(figures.paymentsAwaitingReview), { exact: true }).waitFor();
    // The money is on the first screen, above the fold of a phone.
    const box = (await review.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height * 1.5);
    await expectNoSidewaysScroll(page, '/admin');
    await expectAccessible(page, 'admin overview at 390 (dark)');

    await review.click();
    await page.waitForURL('**/admin/payments?status=review');
    await expect.poll(() => page.getByRole('button', { name: /^Review/ }).getAttribute('aria-pressed')).toBe('true');
  });

  const tabs: { path: string; heading: string; actions: (page: Page) => Locator[] }[] = [
    { path: '/admin', heading: 'Overview', actions: (p) => [p.getByRole('link', { name: /Waiting for review/ })] },
    {
      path: '/admin/movies',
      heading: 'Movies',
      actions: (p) => [
        p.getByRole('button', { name: /^Edit Stock/ }).first(),
        p.getByRole('button', { name: /^Delete Stock/ }).first(),
      ],
    },
    {
      path: '/admin/subscribers',
      heading: 'Subscribers',
      actions: (p) => [
        p.getByRole('button', { name: `Manage subscription of ${subscriber.email}` }),
        p.getByRole('button', { name: `Reset password of ${subscriber.email}` }),
        p.getByRole('button', { name: `Delete ${subscriber.email}` }),
      ],
    },
    {
      path: '/admin/payments',
      heading: 'Payments',
      actions: (p) => [
        p.getByRole('button', { name: /^Resolve: payment by/ }).first(),
        p.getByRole('button', { name: 'Refresh' }),
      ],
    },
    { path: '/admin/messages', heading: 'Messages', actions: (p) => [p.getByLabel('Search messages')] },
    { path: '/admin/analytics', heading: 'Analytics', actions: (p) => [p.getByRole('group', { name: 'Range' })] },
    {
      path: '/admin/plans',
      heading: 'Plans',
      actions: (p) => [p.getByRole('button', { name: `Edit ${plan.plan_name}` })],
    },
    {
      path: '/admin/agents',
      heading: 'Agents',
      actions: (p) => [
        p.getByRole('button', { name: 'Add Agent' }),
        p.getByRole('button', { name: `Reset password of ${agentName}` }),
        p.getByRole('button', { name: `Delete ${agentName}` }),
      ],
    },
  ];

  it('scrolls no tab sideways and keeps each tab’s status and actions on screen', { timeout: 120_000 }, async () => {
    const page = await adminPhone();
    for (const { path, heading, actions } of tabs) {
      await open(page, path, heading);
      if (path === '/admin/subscribers') {
        await page.getByLabel('Search subscribers').fill(subscriber.email);
        await page.getByRole('row').filter({ hasText: subscriber.email }).first().waitFor();
        // The row is a card: its status is on screen beside its label, not past a sideways scroll.
        await expectOnScreen(
          page.getByRole('row').filter({ hasText: subscriber.email }).getByText('Active', { exact: true }).first(),
          'status',
        );
      }
      await expectNoSidewaysScroll(page, path);
      for (const action of actions(page)) await expectOnScreen(action, `${path}: ${await action.textContent()}`);
      // The open tab is in view in the tab bar.
      await expectOnScreen(
        page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: heading }),
        `${heading} tab`,
      );
    }
  });

  it('shows which side of the tab bar has more tabs', async () => {
    const page = await adminPhone();
    await open(page, '/admin', 'Overview');
    await page.getByTestId('tabs-more-after').waitFor();
    expect(await page.getByTestId('tabs-more-before').count()).toBe(0);
    await open(page, '/admin/agents', 'Agents');
    await page.getByTestId('tabs-more-before').waitFor();
    expect(await page.getByTestId('tabs-more-after').count()).toBe(0);
    // Scrolling the bar back to its start turns the hints around.
    await page.getByRole('navigation', { name: 'Admin' }).evaluate((nav) => nav.scrollTo({ left: 0 }));
    await page.getByTestId('tabs-more-after').waitFor();
  });
});
