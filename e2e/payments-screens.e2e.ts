import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOBILE_MONEY } from '../shared/src/mobile-money.ts';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser, newContext } from './support/browser.ts';
import {
  adminSession,
  createSellablePlan,
  registerUser,
  signInContext,
  subscribeUser,
  uniqueStamp,
  type ApiSession,
  type SeededPlan,
  type SeededUser,
} from './support/seed.ts';

let browser: Browser;
/** Ends 31 Dec 2030: the plan most tests buy. */
let plan: SeededPlan;

beforeAll(async () => {
  browser = await launchBrowser();
  plan = await createSellablePlan({
    plan_name: `Family Bundle With A Rather Long Name ${uniqueStamp()}`,
    price_ugx: 25000,
    features: ['HD downloads of every Kinayuganda and English movie in the library', 'Support'],
    global_expiry_date: '2030-12-31T23:59',
  });
});

afterAll(async () => {
  await browser?.close();
});

/** Waits for the tab's title (set once the lazily loaded screen renders). */
async function expectTitle(page: Page, expected: string): Promise<void> {
  await page
    .waitForFunction((want) => document.title === want, expected, { timeout: 5000 })
    .catch(async () => expect(await page.evaluate(() => document.title)).toBe(expected));
}
const toasts = (page: Page) => page.getByTestId('toast');

/** The text of the focused element, once focus has settled on something other than the body. */
function focusedText(page: Page): Promise<string> {
  return page
    .waitForFunction(() => document.activeElement && document.activeElement !== document.body)
    .then(() => page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
}

/** Nothing is wider than a 360 × 740 phone (no sideways scrolling). */
async function fitsNarrowPhone(page: Page, label: string): Promise<void> {
  await page.setViewportSize({ width: 360, height: 740 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${label} is ${width}px wide at 360px`).toBeLessThanOrEqual(360);
  await page.setViewportSize({ width: 390, height: 844 });
}

/** A context signed in as the user, or (for staff) as an agent: the session the PWA keeps. */
async function contextFor(user: ApiSession, theme: 'light' | 'dark' = 'light'): Promise<BrowserContext> {
  const context = await newContext(browser);
  await signInContext(context, user, theme);
  return context;
}

async function agentContext(): Promise<{ context: BrowserContext; session: ApiSession }> {
  const admin = await adminSession();
  const email = `agent-${uniqueStamp()}@filamu.test`;
  const { generatedPassword } = await apiCall<{ generatedPassword: string }>('/agents', {
    method: 'POST',
    ...admin,
    body: { full_name: 'Field Agent', phone: '0701234567', email, send_credentials_via: 'none' },
  });
  const deviceId = randomUUID();
  const { token } = await apiCall<{ token: string }>('/auth/agent/login', {
    method: 'POST',
    deviceId,
    body: { email, password: generatedPassword, currentDeviceId: deviceId },
  });
  const context = await newContext(browser);
  await context.addInitScript(
    ({ token, deviceId }) => {
      localStorage.setItem('filamu.session', JSON.stringify({ token, kind: 'agent' }));
      localStorage.setItem('filamu.deviceId', deviceId);
    },
    { token, deviceId },
  );
  return { context, session: { token, deviceId } };
}

/** Starts a payment for `planId` and answers the prompt from a phone whose last digit decides the outcome. */
async function payThroughApi(user: SeededUser, planId: string, phone: string): Promise<string> {
  const as = { token: user.token, deviceId: user.deviceId };
  const started = await apiCall<{ transaction_id: string; dpo_token: string }>('/payments/initiate', {
    method: 'POST',
    ...as,
    body: { subscription_plan_id: planId, currency: 'UGX' },
  });
  await apiCall('/payments/charge-mobile', {
    method: 'POST',
    ...as,
    body: { transaction_id: started.transaction_id, phoneNumber: phone, mno: 'MTNmobilemoney' },
  });
  // The sandbox answers a prompt after 1 s; a pending one stays pending.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await apiCall(`/payments/verify/${started.dpo_token}`, as);
  return started.transaction_id;
}

/** From the plan's checkout to the payment wizard's first step. */
async function openWizard(page: Page, planId: string): Promise<void> {
  await page.goto(`/checkout/${planId}`);
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await page.waitForURL('**/payment-flow');
  await page.getByRole('heading', { name: 'Choose your mobile money network' }).waitFor();
}

describe('Staff and purchases', () => {
  it('never offers an agent a purchase, and the agent stays signed in', async () => {
    const { context, session } = await agentContext();
    const page = await context.newPage();
    const unauthorised: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 401) unauthorised.push(response.url());
    });
    try {
      const note = 'Agents have full access to the library — no subscription needed.';
      for (const path of ['/subscription', `/checkout/${plan.id}`, '/payment-flow']) {
        await page.goto(path);
        await page.getByText(note).waitFor();
        expect(page.url()).toContain(path);
        for (const name of ['Subscribe Now', 'Proceed to Payment', /^Pay /]) {
          expect(await page.getByRole('button', { name }).count(), `${String(name)} on ${path}`).toBe(0);
        }
        await page.getByRole('link', { name: 'Browse Movies' }).waitFor();
        await page.getByRole('link', { name: 'Dashboard' }).first().waitFor();
      }
      expect(await page.evaluate(() => localStorage.getItem('filamu.session'))).toContain(session.token);
      expect(unauthorised, 'no call answered 401').toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('never offers an admin a purchase', async () => {
    const context = await contextFor(await adminSession());
    const page = await context.newPage();
    try {
      await page.goto('/subscription');
      await page.getByText('Admins have full access to the library — no subscription needed.').waitFor();
      expect(await page.getByRole('button', { name: 'Subscribe Now' }).count()).toBe(0);
      await page.goto(`/checkout/${plan.id}`);
      await page.getByText('Admins have full access', { exact: false }).waitFor();
      expect(await page.getByRole('button', { name: 'Proceed to Payment' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('Checkout result pages', () => {
  it('sends a guest to sign in and claims nothing', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await page.goto(`/checkout/success?transaction_id=${randomUUID()}&plan_name=Gold&amount=1`);
      await page.waitForURL('**/login');
      expect(await page.getByRole('heading', { name: 'Payment Successful!' }).count()).toBe(0);
      expect(await page.getByText('Activated', { exact: false }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('tells a signed-in person without that payment so, on either page', async () => {
    const context = await contextFor(await registerUser());
    const page = await context.newPage();
    try {
      for (const path of [
        `/checkout/success?transaction_id=${randomUUID()}&plan_name=Gold&amount=99000`,
        '/checkout/success',
        '/checkout/failed?error=Your%20card%20was%20stolen&plan_name=Gold',
      ]) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: "We couldn't find that payment" }).waitFor();
        await expectTitle(page, 'Payment not found · Filamu');
        expect(await page.getByText('Payment Successful!').count()).toBe(0);
        expect(await page.getByText('Your card was stolen').count()).toBe(0);
        await page.getByRole('link', { name: 'View plans' }).waitFor();
        expect(await toasts(page).filter({ hasText: 'Activated' }).count()).toBe(0);
      }
    } finally {
      await context.close();
    }
  });

  it('shows a real payment as the server has it, whatever the address says, in light and dark', async () => {
    const user = await registerUser();
    const completed = await payThroughApi(user, plan.id, '0772000005');
    const other = await registerUser();
    const declined = await payThroughApi(other, plan.id, '0772000001');

    for (const theme of ['light', 'dark'] as const) {
      const context = await contextFor(user, theme);
      const page = await context.newPage();
      try {
        // The failure page of a completed payment still shows the success, not the address's error.
        await page.goto(`/checkout/failed?transaction_id=${completed}&error=Insufficient%20funds&plan_name=Fake`);
        await page.getByRole('heading', { level: 1, name: 'Payment Successful!' }).waitFor();
        await page.getByText(`Welcome, ${user.fullName}!`).waitFor();
        await page.getByText(plan.plan_name).waitFor();
        await page.getByText('UGX 25,000').waitFor();
        await page.getByText(completed).waitFor();
        await toasts(page).filter({ hasText: 'Subscription Activated!' }).waitFor();
        expect(await page.getByText('Insufficient funds').count()).toBe(0);
        await expectTitle(page, 'Payment Successful · Filamu');
        await expectAccessible(page, `success page (${theme})`);
        await fitsNarrowPhone(page, '/checkout/success');
      } finally {
        await context.close();
      }

      const otherContext = await contextFor(other, theme);
      const otherPage = await otherContext.newPage();
      try {
        await otherPage.goto(`/checkout/success?transaction_id=${declined}&plan_name=Gold&amount=1`);
        await otherPage.getByRole('heading', { level: 1, name: 'Payment Failed' }).waitFor();
        await otherPage.getByText('Transaction declined').waitFor();
        expect(await otherPage.getByText('Payment Successful').count()).toBe(0);
        expect(await toasts(otherPage).filter({ hasText: 'Activated' }).count()).toBe(0);
        await expectTitle(otherPage, 'Payment Failed · Filamu');
        await otherPage.goto(`/checkout/failed?transaction_id=${declined}`);
        await otherPage.getByRole('heading', { level: 1, name: 'Payment Failed' }).waitFor();
        await expectAccessible(otherPage, `failed page (${theme})`);
        await fitsNarrowPhone(otherPage, '/checkout/failed');
        // Someone else's payment is not this person's to see.
        await otherPage.goto(`/checkout/success?transaction_id=${completed}`);
        await otherPage.getByRole('heading', { name: "We couldn't find that payment" }).waitFor();
      } finally {
        await otherContext.close();
      }
    }
  });

  it('says a pending payment is still waiting', async () => {
    const user = await registerUser();
    const pending = await payThroughApi(user, plan.id, '0772000002');
    const context = await contextFor(user);
    const page = await context.newPage();
    try {
      await page.goto(`/checkout/success?transaction_id=${pending}`);
      await page.getByRole('heading', { level: 1, name: 'Still waiting for your payment' }).waitFor();
      await expectTitle(page, 'Payment status · Filamu');
      expect(await page.getByText('Payment Successful').count()).toBe(0);
      await page.getByRole('button', { name: 'Check again' }).click();
      await page.getByRole('heading', { name: 'Still waiting for your payment' }).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('The payment wizard', () => {
  it('shows the gateway steps as a list, its USSD code matching the card, and moves focus to each step', async () => {
    const context = await contextFor(await registerUser());
    const page = await context.newPage();
    try {
      await page.goto('/subscription');
      await expectTitle(page, 'Subscription Plans · Filamu');
      await page.goto(`/checkout/${plan.id}`);
      await page.getByRole('heading', { name: 'Order Summary' }).waitFor();
      await expectTitle(page, 'Checkout · Filamu');
      await openWizard(page, plan.id);
      await expectTitle(page, 'Payment · Filamu');
      expect(await page.locator('h1').count()).toBe(1);

      const mtn = MOBILE_MONEY.MTNmobilemoney;
      const steps = page.getByRole('list', { name: `How paying with ${mtn.name} works` });
      await steps.getByRole('listitem').first().waitFor();
      const items = await steps.getByRole('listitem').allInnerTexts();
      expect(items).toHaveLength(4);
      expect(items[0]).toBe('MTN will send you a request to complete the payment of UGX 25,000.');
      expect(items[1]).toBe(`If you don't get the prompt, dial ${mtn.ussd} & select ${mtn.approvalsMenu}.`);
      expect(items[3]).toBe('Shortly, you will receive an SMS confirmation.');
      expect(await steps.evaluate((el) => el.tagName)).toBe('OL');
      await page.getByText(`No prompt? Dial ${mtn.ussd} and select ${mtn.approvalsMenu}`).first().waitFor();
      expect(await page.locator('main').innerText()).not.toMatch(/&#|&amp;|\*165\*3#/);

      await page.getByRole('button', { name: `Use ${mtn.name}` }).click();
      expect(await focusedText(page)).toBe(`Pay with ${mtn.name}`);
      await page.getByRole('button', { name: 'Change method' }).click();
      expect(await focusedText(page)).toBe('Choose your mobile money network');
      await page.getByRole('button', { name: `Use ${mtn.name}` }).click();
      expect(await focusedText(page)).toBe(`Pay with ${mtn.name}`);

      // A prompt nobody answers: the wizard waits and shows the phone's steps.
      await page.getByLabel('Phone Number').fill('0772000002');
      await page.getByRole('button', { name: 'Pay UGX 25,000 Now' }).click();
      await page.getByRole('heading', { name: 'Waiting for your payment' }).waitFor();
      expect(await focusedText(page)).toBe('Waiting for your payment');
      const onPhone = page.getByRole('list', { name: 'On your phone' });
      expect(await onPhone.evaluate((el) => el.tagName)).toBe('OL');
      expect(await onPhone.getByRole('listitem').nth(1).innerText()).toContain(mtn.ussd);
      expect(await toasts(page).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('answers a wrong phone number with one inline error and no toast, and focuses the success heading', async () => {
    const context = await contextFor(await registerUser());
    const page = await context.newPage();
    try {
      await openWizard(page, plan.id);
      await page.getByRole('button', { name: 'Use MTN Mobile Money' }).click();
      const field = page.getByLabel('Phone Number');
      await field.fill('12345');
      await page.getByRole('button', { name: 'Pay UGX 25,000 Now' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'Enter a Uganda phone number' });
      await alert.waitFor();
      expect(await page.getByText('Enter a Uganda phone number').count()).toBe(1);
      expect(await toasts(page).count()).toBe(0);
      const alertId = await alert.getAttribute('id');
      expect(await field.getAttribute('aria-describedby')).toContain(alertId);
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      await page.getByRole('button', { name: 'Pay UGX 25,000 Now' }).click();
      expect(await page.getByText('Enter a Uganda phone number').count()).toBe(1);
      expect(await toasts(page).count()).toBe(0);

      await field.fill('');
      await page.getByRole('button', { name: 'Pay UGX 25,000 Now' }).click();
      await page.getByRole('alert').filter({ hasText: 'Please enter your phone number' }).waitFor();
      expect(await toasts(page).count()).toBe(0);

      await field.fill('0772000005');
      expect(await page.getByRole('alert').count()).toBe(0);
      await page.getByRole('button', { name: 'Pay UGX 25,000 Now' }).click();
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 20_000 });
      expect(await focusedText(page)).toBe('Payment Successful!');
    } finally {
      await context.close();
    }
  });

  it('passes axe and fits a 360 px phone on every payments page, light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const context = await contextFor(await registerUser(), theme);
      const page = await context.newPage();
      try {
        await page.goto('/subscription');
        await page.getByRole('heading', { name: plan.plan_name }).waitFor();
        await expectAccessible(page, `/subscription (${theme})`);
        await fitsNarrowPhone(page, '/subscription');
        await page.goto(`/checkout/${plan.id}`);
        await page.getByRole('heading', { name: 'Order Summary' }).waitFor();
        await expectAccessible(page, `/checkout (${theme})`);
        await fitsNarrowPhone(page, '/checkout/:id');
        await page.getByRole('button', { name: 'Proceed to Payment' }).click();
        await page.getByRole('heading', { name: 'Choose your mobile money network' }).waitFor();
        await page
          .getByRole('list', { name: /How paying with/ })
          .first()
          .waitFor();
        await expectAccessible(page, `/payment-flow method (${theme})`);
        await fitsNarrowPhone(page, '/payment-flow');
        await page.getByRole('button', { name: 'Use Airtel Money' }).click();
        await page.getByRole('button', { name: 'Pay UGX 25,000 Now' }).click();
        await page.getByRole('alert').first().waitFor();
        await expectAccessible(page, `/payment-flow phone (${theme})`);
        await fitsNarrowPhone(page, '/payment-flow phone');
      } finally {
        await context.close();
      }
    }
  });
});

describe('Renewing and changing plans', () => {
  it('says on each card how long it lasts and what it does to the current plan, and refuses a shorter one', async () => {
    const stamp = uniqueStamp();
    const current = await createSellablePlan({ plan_name: `Silver ${stamp}`, global_expiry_date: '2029-06-30T23:59' });
    const later = await createSellablePlan({ plan_name: `Gold ${stamp}`, global_expiry_date: '2030-12-31T23:59' });
    const sooner = await createSellablePlan({ plan_name: `Bronze ${stamp}`, global_expiry_date: '2028-03-31T23:59' });
    const user = await registerUser();
    await subscribeUser(user.id, current.id);

    // The server refuses what the card refuses.
    const refused = await fetch(`${baseURL()}/api/payments/initiate`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${user.token}`,
        'X-Device-Id': user.deviceId,
      },
      body: JSON.stringify({ subscription_plan_id: sooner.id }),
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      `on or before your ${current.plan_name} plan (until 30 Jun 2029)`,
    );

    const context = await contextFor(user);
    const page = await context.newPage();
    try {
      await page.goto('/subscription');
      await page.getByRole('heading', { level: 1, name: 'Renew or change your plan' }).waitFor();
      const card = (name: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });

      await card(current.plan_name)
        .getByText(/^Access until 30 Jun 2029, \d{1,2}:\d\d [AP]M \(Kampala\) · .+ left$/)
        .waitFor();
      expect(await card(current.plan_name).getByRole('button', { name: 'Current Plan' }).isDisabled()).toBe(true);

      const gold = card(later.plan_name);
      await gold.getByText(/^Access until 31 Dec 2030, \d{1,2}:\d\d [AP]M \(Kampala\) · .+ left$/).waitFor();
      await gold
        .getByText(`Replaces your ${current.plan_name} plan, which ends 30 Jun 2029.`, { exact: false })
        .waitFor();
      expect(await gold.getByRole('button', { name: 'Subscribe Now' }).isEnabled()).toBe(true);

      const bronze = card(sooner.plan_name);
      const blocked = bronze.getByRole('button', { name: 'Ends before your current plan' });
      expect(await blocked.isDisabled()).toBe(true);
      await bronze.getByText('this one would end sooner', { exact: false }).waitFor();

      await page.goto(`/checkout/${sooner.id}`);
      expect(await page.getByRole('button', { name: 'Ends before your current plan' }).isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Proceed to Payment' }).count()).toBe(0);
      await fitsNarrowPhone(page, '/checkout/:id (subscriber)');
    } finally {
      await context.close();
    }
  });
});
