import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser } from './support/browser.ts';
import { adminSession, registerUser, signInContext } from './support/seed.ts';
import { confirmPhone, simulatorTexts } from './support/sms.ts';

/** Issue 20 §5: the console's Messages tab, driven as an admin would, on a desktop and on a 360 px phone. */
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
});

async function adminPage(path: string, width: number, theme: 'light' | 'dark'): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width, height: 900 } });
  contexts.push(context);
  await signInContext(context, await adminSession(), theme);
  const page = await context.newPage();
  await page.goto(path);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page;
}

/** The texts the SMS simulator received for this number, newest first. */
const textsTo = async (phone: string) => (await simulatorTexts(phone)).map((m) => m.text);

describe('Messages tab', () => {
  it("finds a subscriber's SMS by their 07… number and resends it; the copy reaches the simulator", async () => {
    const user = await registerUser();
    const canonical = `256${user.phone.slice(1)}`;
    const { token, deviceId } = await adminSession();
    // Support texts go to a proven phone only (decision 0214): the person confirms the number first.
    await confirmPhone(user);
    const before = (await textsTo(canonical)).length;
    // A re-download granted by support is texted (no secret in it): a message that may be resent.
    await apiCall(`/admin/subscribers/${user.id}/redownloads`, { method: 'POST', token, deviceId, body: {} });
    await expect.poll(() => textsTo(canonical), { timeout: 20_000 }).toHaveLength(before + 1);

    const page = await adminPage('/admin/messages', 1280, 'light');
    await page
      .getByLabel('Search messages')
      .fill(`${user.phone.slice(0, 4)} ${user.phone.slice(4, 7)} ${user.phone.slice(7)}`);
    const table = page.getByRole('table', { name: 'Messages, newest first' });
    const row = table.getByRole('row').filter({ hasText: 'Redownload granted' });
    await row.first().waitFor();
    // The search applies as the person stops typing: until then the list may still show every message.
    await expect.poll(() => table.getByRole('row').count()).toBe(3); // the header, the code and the notice
    await expect.poll(() => row.getByText(/Sent|Delivered/).count()).toBe(1);
    // The gateway's "UGX 35.0000" as people read money.
    await row.getByText('1 part · UGX 35', { exact: true }).waitFor();
    await expectAccessible(page, 'messages tab');

    await row.getByRole('button', { name: /^Resend SMS to 07/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Resend this message?' }).waitFor();
    await dialog.getByRole('button', { name: 'Resend' }).click();
    await page.getByText('Message resent').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The copy is listed, then sent by the dispatcher through the simulator.
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'Redownload granted' }).count()).toBe(2);
    await table.getByText('Resent copy').waitFor();
    await expect.poll(() => textsTo(canonical), { timeout: 20_000 }).toHaveLength(before + 2);
    const [copy, original] = await textsTo(canonical);
    expect(copy).toBe(original);
  });

  it('shows cards on a 360 px phone in dark mode, a code as not resendable, and the gateway balance on Overview', async () => {
    const user = await registerUser();
    const canonical = `256${user.phone.slice(1)}`;
    // Recovery codes go only to a confirmed number (decision 0197): the confirm step's text comes first.
    await confirmPhone(user);
    await apiCall('/auth/recovery/request', { method: 'POST', body: { identifier: user.phone } });
    await expect.poll(() => textsTo(canonical), { timeout: 20_000 }).toHaveLength(2);
    const [text] = await textsTo(canonical);
    const code = /\b(\d{6})\b/.exec(text!)![1]!;

    const page = await adminPage('/admin/messages', 360, 'dark');
    await page.getByLabel('Search messages').fill(user.phone);
    const cards = page.getByRole('list', { name: 'Messages, newest first' });
    // Once the search has applied, this number's two messages (the confirm code, the reset code) are the only cards.
    await expect.poll(() => cards.getByRole('listitem').count()).toBe(2);
    const card = cards.getByRole('listitem').filter({ hasText: 'Password reset' });
    await card.getByText(/Not resendable: It held a password reset code/).waitFor();
    expect(await card.getByRole('button', { name: /Resend/ }).count()).toBe(0);
    expect(await page.content()).not.toContain(code);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await expectAccessible(page, 'messages cards');

    await page.getByLabel('Search messages').fill('nobody-at-all@example.com');
    await page.locator('p', { hasText: 'No messages match these filters.' }).waitFor();

    await page.goto('/admin');
    await page.getByRole('heading', { name: 'SMS gateway' }).waitFor();
    await page.getByText(/^Balance: UGX \d/).waitFor();
    // The SMS budget (decision 0201): this hour's codes against their ceiling, and the form behind its disclosure.
    await page.getByRole('heading', { name: 'SMS budget' }).waitFor();
    const budget = page.getByRole('table', { name: 'Texts sent this hour and today, against their ceilings' });
    await budget.getByRole('row', { name: /^Codes \d+ of 300 \d+ of 2,000$/ }).waitFor();
    await page.getByText('Change the ceilings and the alarm').click();
    await page.getByLabel('Codes per network per hour').waitFor();
    const overview = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(overview.scrollWidth).toBeLessThanOrEqual(overview.innerWidth);
    await expectAccessible(page, 'overview with the SMS budget');
  });
});
