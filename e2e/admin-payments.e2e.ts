import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { launchBrowser, newContext } from './support/browser.ts';
import {
  adminSession,
  createSellablePlan,
  registerUser,
  type SeededPlan,
  type SeededUser,
  signInContext,
} from './support/seed.ts';

/** Sandbox phone numbers: the last digit decides what DPO does (api/src/features/payments/dpo/sandbox.ts). */
const OVER_OR_UNDERPAID = '0772000004';
const NEVER_PAID = '0772000002';

let browser: Browser;
let plan: SeededPlan;

/** A user starts paying for the plan through the API, as the checkout does, and gets the prompt on `phone`. */
async function startPaying(user: SeededUser, phone: string): Promise<{ transactionId: string; dpoToken: string }> {
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
  return { transactionId: started.transaction_id, dpoToken: started.dpo_token };
}

/** The payer's own verify, until DPO has decided (the sandbox decides ~1 s after the charge). */
async function verifyUntil(user: SeededUser, dpoToken: string, status: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const result = await apiCall<{ status: string }>(`/payments/verify/${dpoToken}`, {
      token: user.token,
      deviceId: user.deviceId,
    });
    if (result.status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`payment ${dpoToken} never became ${status}`);
}

async function openTab(page: Page): Promise<void> {
  await page.goto('/admin/payments');
  await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
}

async function searchFor(page: Page, text: string): Promise<void> {
  await page.getByLabel('Search payments').fill(text);
  // The search is debounced: wait until the table lists only matching payments, not just one that matches.
  await expect
    .poll(async () => {
      const rows = await page.locator('tbody tr').allInnerTexts();
      return rows.length > 0 && rows.every((row) => row.includes(text));
    })
    .toBe(true);
}

beforeAll(async () => {
  browser = await launchBrowser();
  await adminSession();
  plan = await createSellablePlan({ price_ugx: 10000 });
});

afterAll(async () => {
  await browser?.close();
});

describe('Admin payments', () => {
  it('shows an over/underpaid payment for review; the admin activates it with a note and the payer is subscribed', async () => {
    const payer = await registerUser();
    const payment = await startPaying(payer, OVER_OR_UNDERPAID);
    await verifyUntil(payer, payment.dpoToken, 'review');

    const context = await newContext(browser);
    await signInContext(context, await adminSession(), 'light');
    const page = await context.newPage();
    try {
      await openTab(page);
      await page.getByText(/payments? needs? review — the amount or reference did not match/).waitFor();
      await page.getByRole('button', { name: /^Review \(\d+\)$/ }).click();
      await expect.poll(() => page.getByRole('button', { name: /^Review/ }).getAttribute('aria-pressed')).toBe('true');
      await searchFor(page, payer.email);
      await page.getByText('Needs review', { exact: true }).waitFor();
      await expectAccessible(page, 'admin payments, review filter, light');

      await page.getByRole('button', { name: `Resolve: payment by ${payer.email}` }).click();
      // The dialog's root has no box of its own (its panel is fixed): wait for what is in it.
      const dialog = page.getByRole('dialog', { name: 'Resolve payment' });
      await dialog.getByText('Transaction overpaid/underpaid').waitFor();
      await dialog.getByText('UGX 10,000').waitFor();
      // The sandbox reports 1,000 less than asked for an over/underpaid charge.
      await dialog.getByText('UGX 9,000').waitFor();
      await expectAccessible(page, 'admin payments, resolve dialog, light');

      // No note: the dialog says so and sends nothing.
      await dialog.getByRole('button', { name: 'Activate subscription' }).click();
      await dialog.getByText('A note is required: say what you checked in DPO.').waitFor();

      await dialog.getByLabel('Note (required)').fill('DPO portal shows UGX 9,000 received; topped up by phone.');
      await dialog.getByRole('button', { name: 'Activate subscription' }).click();
      await page.getByRole('status').filter({ hasText: 'Subscription activated.' }).waitFor();
      await dialog.waitFor({ state: 'detached' });

      // Resolved payments leave the Review filter; under All the row carries the decision.
      await page.getByRole('button', { name: /^All/ }).click();
      await page.getByText('Completed', { exact: true }).waitFor();
      await page.getByText(/Activated by .+: “DPO portal shows UGX 9,000 received; topped up by phone\.”/).waitFor();

      const profile = await apiCall<{ isSubscribed: boolean; subscriptionPlan: string | null }>('/auth/profile', {
        token: payer.token,
        deviceId: payer.deviceId,
      });
      expect(profile).toMatchObject({ isSubscribed: true, subscriptionPlan: plan.plan_name });
    } finally {
      await context.close();
    }
  });

  it('re-checks a pending payment with DPO from its row', async () => {
    const payer = await registerUser();
    await startPaying(payer, NEVER_PAID);

    const context = await newContext(browser);
    await signInContext(context, await adminSession(), 'light');
    const page = await context.newPage();
    try {
      await openTab(page);
      await page.getByRole('button', { name: /^Pending/ }).click();
      await searchFor(page, payer.email);
      await page.getByRole('button', { name: `Check with DPO: payment by ${payer.email}` }).click();
      await page.getByRole('status').filter({ hasText: 'Still pending' }).waitFor();
      await page.getByText('Pending', { exact: true }).last().waitFor();
    } finally {
      await context.close();
    }
  });

  it('is accessible in dark mode', async () => {
    const context = await newContext(browser);
    await signInContext(context, await adminSession(), 'dark');
    const page = await context.newPage();
    try {
      await openTab(page);
      await page.getByRole('cell').first().waitFor();
      await expectAccessible(page, 'admin payments, dark');
    } finally {
      await context.close();
    }
  });
});
