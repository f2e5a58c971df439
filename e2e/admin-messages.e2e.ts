import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser } from './support/browser.ts';
import { adminSession, registerUser, signInContext } from './support/seed.ts';

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

/** What the SMS simulator received for this number (decision 0147). */
async function simulatorTexts(phone: string): Promise<string[]> {
  const { token, deviceId } = await adminSession();
  const { messages } = await apiCall<{ messages: { text: string }[] }>(`/admin/sms-simulator/messages?to=${phone}`, {
    token,
    deviceId,
  });
  return messages.map((m) => m.text);
}

describe('Messages tab', () => {
  it("finds a subscriber's SMS by their 07… number and resends it; the copy reaches the simulator", async () => {
    const user = await registerUser();
    const canonical = `256${user.phone.slice(1)}`;
    const { token, deviceId } = await adminSession();
    // An admin password reset tells the subscriber by SMS (no password in it): a message that may be resent.
    await apiCall(`/admin/subscribers/${user.id}/reset-password`, { method: 'POST', token, deviceId });
    await expect.poll(() => simulatorTexts(canonical), { timeout: 20_000 }).toHaveLength(1);

    const page = await adminPage('/admin/messages', 1280, 'light');
    await page
      .getByLabel('Search messages')
      .fill(`${user.phone.slice(0, 4)} ${user.phone.slice(4, 7)} ${user.phone.slice(7)}`);
    const table = page.getByRole('table', { name: 'Messages, newest first' });
    const row = table.getByRole('row').filter({ hasText: 'Password reset notice' });
    await row.first().waitFor();
    // The search applies as the person stops typing: until then the list may still show every message.
    await expect.poll(() => table.getByRole('row').count()).toBe(2); // the header and this one message
    await expect.poll(() => row.getByText(/Sent|Delivered/).count()).toBe(1);
    await row.getByText('1 part · UGX 35.0000').waitFor();
    await expectAccessible(page, 'messages tab');

    await row.getByRole('button', { name: /^Resend SMS to 07/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Resend this message?' }).waitFor();
    await dialog.getByRole('button', { name: 'Resend' }).click();
    await page.getByText('Message resent').waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The copy is listed, then sent by the dispatcher through the simulator.
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'Password reset notice' }).count()).toBe(2);
    await table.getByText('Resent copy').waitFor();
    await expect.poll(() => simulatorTexts(canonical), { timeout: 20_000 }).toHaveLength(2);
    const [first, second] = await simulatorTexts(canonical);
    expect(first).toBe(second);
  });

  it('shows cards on a 360 px phone in dark mode, a code as not resendable, and the gateway balance on Overview', async () => {
    const user = await registerUser();
    const canonical = `256${user.phone.slice(1)}`;
    await apiCall('/auth/recovery/request', { method: 'POST', body: { identifier: user.phone } });
    await expect.poll(() => simulatorTexts(canonical), { timeout: 20_000 }).toHaveLength(1);
    const [text] = await simulatorTexts(canonical);
    const code = /\b(\d{6})\b/.exec(text!)![1]!;

    const page = await adminPage('/admin/messages', 360, 'dark');
    await page.getByLabel('Search messages').fill(user.phone);
    const cards = page.getByRole('list', { name: 'Messages, newest first' });
    // Once the search has applied, this number's one message is the only card.
    await expect.poll(() => cards.getByRole('listitem').count()).toBe(1);
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
  });
});
