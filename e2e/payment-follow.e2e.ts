import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import {
  adminSession,
  createSellablePlan,
  registerUser,
  signInContext,
  uniqueStamp,
  type SeededPlan,
  type SeededUser,
} from './support/seed.ts';

/** Sandbox numbers: the last digit decides; 2 is never paid, so the payment keeps waiting. */
const NEVER_PAID = '0772000002';

let browser: Browser;
let plan: SeededPlan;
let otherPlan: SeededPlan;

beforeAll(async () => {
  browser = await launchBrowser();
  plan = await createSellablePlan({ plan_name: `Follow ${uniqueStamp()}`, price_ugx: 25000 });
  otherPlan = await createSellablePlan({ plan_name: `Other ${uniqueStamp()}`, price_ugx: 30000 });
});

afterAll(async () => {
  await browser?.close();
});

async function initiate(user: SeededUser, planId: string) {
  return apiCall<{ transaction_id: string; dpo_token: string; reference: string }>('/payments/initiate', {
    method: 'POST',
    token: user.token,
    deviceId: user.deviceId,
    body: { subscription_plan_id: planId },
  });
}

async function waitingPayment(user: SeededUser): Promise<SeededWaiting> {
  const started = await initiate(user, plan.id);
  await apiCall('/payments/charge-mobile', {
    method: 'POST',
    token: user.token,
    deviceId: user.deviceId,
    body: { transaction_id: started.transaction_id, phoneNumber: NEVER_PAID, mno: 'MTNmobilemoney' },
  });
  return started;
}
type SeededWaiting = Awaited<ReturnType<typeof initiate>>;

async function userPage(user: SeededUser, width = 390, height = 844): Promise<Page> {
  const context = await newContext(browser);
  await signInContext(context, user);
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  return page;
}

describe('Payments a person can follow', () => {
  it('a payment page opened and left never appears in the history', async () => {
    const user = await registerUser();
    const page = await userPage(user);
    try {
      await page.goto(`/checkout/${plan.id}`);
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      await page.getByRole('heading', { name: 'Choose your mobile money network' }).waitFor();
      await page.getByRole('link', { name: 'Back to plans' }).click();
      await page.goto('/profile');
      await page.getByRole('tab', { name: 'Subscription' }).click();
      await page.getByRole('heading', { name: 'Payment history' }).waitFor();
      await page.getByText('No payments yet').waitFor();
      expect(await page.getByText(/Pending|Expired/).count()).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('shows a payment waiting for the phone on the dashboard and plans page, and refuses a second purchase', async () => {
    const user = await registerUser();
    const waiting = await waitingPayment(user);
    const page = await userPage(user);
    try {
      await page.goto('/dashboard');
      const card = page.getByRole('region', { name: 'A payment is waiting for your phone' });
      await card.getByText(waiting.reference).waitFor();
      await card.getByText('0772 000 002').waitFor();
      for (const action of ['Send the prompt again', 'Use another number', 'Cancel payment']) {
        await card.getByRole('button', { name: action }).waitFor();
      }
      await expectAccessible(page, 'dashboard with a waiting payment');
      expect(await page.getByRole('link', { name: 'Subscribe Now' }).count()).toBe(0);

      await page.goto('/subscription');
      await page.getByRole('region', { name: 'A payment is waiting for your phone' }).waitFor();
      await page.getByRole('heading', { name: otherPlan.plan_name }).waitFor();

      // The server refuses a second purchase even when asked directly; the checkout says what to do.
      await page.goto(`/checkout/${otherPlan.id}`);
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      const refusal = page.getByText(/is still waiting for approval on your phone/);
      await refusal.waitFor();
      expect(await refusal.innerText()).toContain(waiting.reference);
      expect(page.url()).toContain('/checkout/');

      // Cancelled, it is gone from the dashboard and buying is open again.
      await page.goto('/dashboard');
      await page.getByRole('button', { name: 'Cancel payment' }).click();
      await page.getByRole('region', { name: 'A payment is waiting for your phone' }).waitFor({ state: 'detached' });
      const again = await initiate(user, otherPlan.id);
      expect(again.reference).toMatch(/^FLM-[2-9A-HJ-NP-Z]{5}$/);
    } finally {
      await page.context().close();
    }
  });

  it("'Use another number' says which number did not approve and leaves the field empty", async () => {
    const user = await registerUser();
    await waitingPayment(user);
    const page = await userPage(user);
    try {
      await page.goto('/dashboard');
      const card = page.getByRole('region', { name: 'A payment is waiting for your phone' });
      await card.getByRole('button', { name: 'Use another number' }).click();
      await page.getByRole('button', { name: 'Use MTN Mobile Money' }).click();
      await page
        .getByTestId('unapproved-number')
        .getByText("0772 000 002 didn't approve this payment.", { exact: false })
        .waitFor();
      expect(await page.getByLabel('Phone Number').inputValue()).toBe('');
      await expectAccessible(page, 'another number');
    } finally {
      await page.context().close();
    }
  });

  it('the admin finds a payment by its short reference', async () => {
    const user = await registerUser();
    const waiting = await waitingPayment(user);
    const context = await newContext(browser);
    await signInContext(context, await adminSession());
    const page = await context.newPage();
    try {
      await page.goto('/admin/payments');
      await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
      await page.getByLabel('Search payments').fill(waiting.reference);
      await expect
        .poll(async () => {
          const rows = await page.locator('tbody tr').allInnerTexts();
          return rows.length === 1 && rows[0]!.includes(waiting.reference) && rows[0]!.includes(user.email);
        })
        .toBe(true);
    } finally {
      await context.close();
    }
  });

  it("shows both networks' buttons in the first screen of a 360 × 640 phone, and the sandbox's numbers", async () => {
    const user = await registerUser();
    const page = await userPage(user, 360, 640);
    try {
      await page.goto(`/checkout/${plan.id}`);
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      await page.getByRole('heading', { name: 'Choose your mobile money network' }).waitFor();
      const buttons = [
        page.getByRole('button', { name: 'Use MTN Mobile Money' }),
        page.getByRole('button', { name: 'Use Airtel Money' }),
      ];
      for (const button of buttons) await button.waitFor();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      for (const button of buttons) {
        const box = await button.boundingBox();
        expect(box).not.toBeNull();
        expect(box!.y).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height).toBeLessThanOrEqual(640);
        expect(box!.x + box!.width).toBeLessThanOrEqual(360);
        // Not under the app's bottom bar either: the button itself is what a thumb at its middle touches.
        const onTop = await button.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return !!hit && el.contains(hit);
        });
        expect(onTop).toBe(true);
      }
      // Step names are on screen, not only for screen readers.
      for (const name of ['Plan', 'Network', 'Phone', 'Approve', 'Done']) {
        // The label, not the hidden "(done)" after it: its text starts with the step's name.
        const label = page.getByRole('list', { name: 'Payment steps' }).getByText(new RegExp(`^${name}`));
        expect(await label.isVisible()).toBe(true);
      }
      await page.getByRole('heading', { name: 'Test payments — no real money' }).waitFor();
      expect(await page.locator('main').innerText()).not.toMatch(/UGX \d{4,}/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    } finally {
      await page.context().close();
    }
  });
});
