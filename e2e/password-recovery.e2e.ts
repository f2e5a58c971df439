import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser, newUser } from './support/browser.ts';
import { adminSession } from './support/seed.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The latest code the SMS simulator received for this number, read as the admin (decision 0147). */
async function codeFromSimulator(phone: string, after: Set<string>): Promise<string> {
  const { token, deviceId } = await adminSession();
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { messages } = await apiCall<{ messages: { messageId: string; text: string }[] }>(
      `/admin/sms-simulator/messages?to=${phone}`,
      { token, deviceId },
    );
    const fresh = messages.find((m) => !after.has(m.messageId));
    const code = fresh && /\b(\d{6})\b/.exec(fresh.text)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no code reached ${phone}`);
}

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
    // Registered as 256… (the canonical form of 07…).
    const phone = `256${details.phone.slice(1)}`;

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
      await page.getByText('If an account uses this phone number or email, we have sent it a 6-digit code.').waitFor();
      await expectAccessible(page, 'enter the code');
      await expectNoOverflow(page);

      const code = await codeFromSimulator(phone, new Set());
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
