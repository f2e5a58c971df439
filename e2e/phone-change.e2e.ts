import { randomInt } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser, newUser, register } from './support/browser.ts';
import { adminSession } from './support/seed.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The latest 6-digit code the SMS simulator received for this number, read as the admin. */
async function codeFromSimulator(phone: string): Promise<string> {
  const { token, deviceId } = await adminSession();
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { messages } = await apiCall<{ messages: { text: string }[] }>(`/admin/sms-simulator/messages?to=${phone}`, {
      token,
      deviceId,
    });
    const code = messages[0] && /\b(\d{6})\b/.exec(messages[0].text)?.[1];
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

const spaced = (local: string) => `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`;

describe('changing the phone number', () => {
  it('from the profile with a code sent to the new number, then shown on the Security tab', async () => {
    const details = newUser();
    const next = `075${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
    const context = await browser.newContext({ baseURL: baseURL(), viewport: { width: 360, height: 740 } });
    await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
    const page = await context.newPage();
    try {
      await register(page, details);
      await page.waitForURL('**/subscription');
      await page.goto('/profile');
      await page.getByText(spaced(details.phone), { exact: true }).waitFor();

      await page.getByRole('button', { name: 'Change number' }).click();
      await page.getByLabel('New phone number').fill(next);
      await page.getByLabel('Password', { exact: true }).fill('not the password');
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByText('Current password is incorrect.').waitFor();

      await page.getByLabel('Password', { exact: true }).fill(details.password);
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByText(`We sent a code to ${spaced(next)}.`, { exact: false }).waitFor();
      await expectAccessible(page, 'enter the phone code');
      await expectNoOverflow(page);

      const code = await codeFromSimulator(`256${next.slice(1)}`);
      await page.getByLabel('Code', { exact: true }).fill(code);
      await page.getByRole('button', { name: 'Save number' }).click();
      await page.getByRole('button', { name: 'Change number' }).waitFor();
      await page.getByText(spaced(next), { exact: true }).waitFor();

      await page.getByRole('tab', { name: 'Security' }).click();
      await page.getByText(`Recovery codes go to ${spaced(next)} by SMS.`).waitFor();
      await expectAccessible(page, 'security tab');
      await expectNoOverflow(page);
    } finally {
      await context.close();
    }
  });
});
