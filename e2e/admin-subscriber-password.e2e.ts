import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser, login } from './support/browser.ts';
import { adminSession, registerUser, signInContext } from './support/seed.ts';

/** Issue 20 §5: the admin gives a subscriber a new password in the console; the subscriber signs in with it. */
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
});

describe('the admin resets a subscriber password', () => {
  it('shows the new password once with a copy button, signs the old device out, and the subscriber signs in with it', async () => {
    const user = await registerUser();
    const admin = await browser.newContext({ baseURL: baseURL(), viewport: { width: 1280, height: 900 } });
    contexts.push(admin);
    await admin.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL() });
    await signInContext(admin, await adminSession(), 'dark');
    const page = await admin.newPage();
    await page.goto('/admin/subscribers');
    await page.getByLabel('Search subscribers').fill(user.email);
    const row = page.getByRole('row').filter({ hasText: user.email });
    await row.first().waitFor();

    await row.getByRole('button', { name: `Reset password of ${user.email}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Reset password?' }).waitFor();
    await dialog.getByText('they are signed out on every device').waitFor();
    await dialog.getByRole('button', { name: 'Reset Password' }).click();

    await dialog.getByRole('heading', { name: 'New password' }).waitFor();
    const field = dialog.getByLabel('New password');
    const password = await field.inputValue();
    expect(password).toMatch(/^\S{16}$/);
    await expectAccessible(page, 'new subscriber password');
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByText('Password copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The subscriber's old session has ended.
    const old = await fetch(`${baseURL()}/api/auth/profile`, {
      headers: { Authorization: `Bearer ${user.token}`, 'X-Device-Id': user.deviceId },
    });
    expect(old.status).toBe(401);

    // The subscriber signs in on their phone with their number and the new password; the old one is refused.
    const phone = await browser.newContext({ baseURL: baseURL(), viewport: { width: 360, height: 740 } });
    contexts.push(phone);
    const mobile = await phone.newPage();
    await login(mobile, user.phone, user.password);
    await mobile.getByText('Invalid credentials. Please try again.').first().waitFor();
    expect(mobile.url()).toContain('/login');
    await login(mobile, user.phone, password);
    await mobile.waitForURL('**/dashboard');
  });
});
