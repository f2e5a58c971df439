import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser, newUser } from './support/browser.ts';
import { adminSession } from './support/seed.ts';
import { codeFromSimulator, confirmPhone } from './support/sms.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function expectNoOverflow(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

describe('forgot password by phone', () => {
  it('goes from /login to signed in with a code read from the SMS simulator, and signs the old device out', async () => {
    const details = newUser();
    const oldDevice = randomUUID();
    const { token: oldToken } = await apiCall<{ token: string }>('/auth/register', {
      method: 'POST',
      deviceId: oldDevice,
      body: { ...details, currentDeviceId: oldDevice },
    });
    // Registered as 256… (the canonical form of 07…), and confirmed: codes go only to a confirmed number (0197).
    const phone = `256${details.phone.slice(1)}`;
    await confirmPhone({ token: oldToken, deviceId: oldDevice, phone: details.phone });
    const { token: adminToken, deviceId: adminDevice } = await adminSession();
    const before = await apiCall<{ messages: { messageId: string }[] }>(`/admin/sms-simulator/messages?to=${phone}`, {
      token: adminToken,
      deviceId: adminDevice,
    });

    const context = await browser.newContext({ baseURL: baseURL(), viewport: { width: 360, height: 740 } });
    await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
    const page = await context.newPage();
    try {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.waitForURL('**/forgot-password');
      await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      await expectAccessible(page, 'forgot password');
      await expectNoOverflow(page);

      // A typo is said at the field, before anything is sent.
      await page.getByLabel('Phone number or email').fill('12345');
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByText('Enter the phone number (e.g., 0772 123 456) or the email of your account.').waitFor();

      const local = `${details.phone.slice(0, 4)} ${details.phone.slice(4, 7)} ${details.phone.slice(7)}`;
      await page.getByLabel('Phone number or email').fill(local);
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
      await page
        .getByText('If this number is confirmed on a Filamu account, we have sent it a 6-digit code.', { exact: false })
        .waitFor();
      await expectAccessible(page, 'enter the code');
      await expectNoOverflow(page);

      const code = await codeFromSimulator(phone, new Set(before.messages.map((m) => m.messageId)));
      const wrong = code === '000000' ? '111111' : '000000';
      await page.getByLabel('6-digit code').fill(wrong);
      await page.getByLabel('New password', { exact: true }).fill('a new movie night 2026');
      await page.getByRole('button', { name: 'Save and sign in' }).click();
      await page.getByText('That code is wrong or has expired.', { exact: false }).waitFor();

      await page.getByLabel('6-digit code').fill(code);
      await page.getByRole('button', { name: 'Save and sign in' }).click();
      await page.waitForURL('**/dashboard');

      // The old device is signed out; the new password signs in.
      const old = await fetch(`${baseURL()}/api/auth/profile`, {
        headers: { Authorization: `Bearer ${oldToken}`, 'X-Device-Id': oldDevice },
      });
      expect(old.status).toBe(401);
      const again = await fetch(`${baseURL()}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ identifier: details.email, password: 'a new movie night 2026' }),
      });
      expect(again.status).toBe(200);
    } finally {
      await context.close();
    }
  });
});
