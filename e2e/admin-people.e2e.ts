import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { adminCredentials, baseURL, launchBrowser, login } from './support/browser.ts';
import {
  adminSession,
  completeDownload,
  createPlan,
  mp4Bytes,
  registerUser,
  type SeededPlan,
  signInContext,
  subscribeUser,
  uniqueStamp,
  uploadMovie,
} from './support/seed.ts';
import { confirmPhone, simulatorTexts, textFromSimulator } from './support/sms.ts';

/**
 * Issue 10: the admin's Subscribers and Agents tabs, driven as an admin would. The admin session is the one
 * the seed helpers share, so no test here logs the admin out.
 */
let browser: Browser;
let plan: SeededPlan;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  plan = await createPlan({ price_ugx: 25000 });
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
});

async function adminPage(
  path: string,
  options: { theme?: 'light' | 'dark'; width?: number } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseURL(),
    viewport: { width: options.width ?? 1280, height: 900 },
  });
  contexts.push(context);
  await signInContext(context, await adminSession(), options.theme ?? 'light');
  const page = await context.newPage();
  await page.goto(path);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return { context, page };
}

async function searchSubscriber(page: Page, text: string): Promise<Locator> {
  await page.getByLabel('Search subscribers').fill(text);
  const row = page.getByRole('row').filter({ hasText: text });
  await row.first().waitFor();
  return row;
}

const dialog = (page: Page) => page.getByRole('dialog');
/** Headless UI's `role=dialog` element has no box of its own (its panel is fixed), so wait on the title. */
const dialogOpen = (page: Page) => dialog(page).getByRole('heading').first().waitFor();

async function expectNoPageOverflow(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${label}: page is wider than the window`).toBeLessThanOrEqual(innerWidth);
}

/** Focus stays inside the open dialog however far Tab goes, and Escape closes it. */
async function expectFocusTrapped(page: Page): Promise<void> {
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Tab');
    expect(await dialog(page).evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await dialog(page).waitFor({ state: 'detached' });
}

describe('Subscribers tab', () => {
  it('activates a subscriber on a plan, the user becomes subscribed, then deactivates them', async () => {
    const user = await registerUser();
    const { page } = await adminPage('/admin/subscribers');
    const row = await searchSubscriber(page, user.email);
    await expect.poll(() => row.getByText('None').count()).toBe(1);
    await expect.poll(() => row.getByText('No Plan').count()).toBe(1);
    await row.getByRole('button', { name: `Manage subscription of ${user.email}` }).click();

    const box = dialog(page);
    await box.getByText('Current status').waitFor();
    await box.getByRole('button', { name: 'Save Changes' }).click();
    await box.getByText('Please select a subscription plan.').waitFor();

    const year = new Date().getFullYear() + 1;
    await box
      .getByLabel('Subscription plan')
      .selectOption({ label: `${plan.plan_name} — UGX 25,000 — expires 31 Dec ${year}` });
    await box.getByRole('button', { name: 'Save Changes' }).click();
    await box.waitFor({ state: 'detached' });
    await page.getByText('Subscription updated').waitFor();
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByText(plan.plan_name).waitFor();
    await row.getByText(`31 Dec ${year}`).waitFor();

    const profile = await apiCall<{ isSubscribed: boolean; subscriptionPlan: string | null }>('/auth/profile', user);
    expect(profile.isSubscribed).toBe(true);

    await row.getByRole('button', { name: `Manage subscription of ${user.email}` }).click();
    await dialog(page).getByLabel('Action').selectOption('deactivate');
    expect(await dialog(page).getByLabel('Subscription plan').count()).toBe(0);
    await dialog(page).getByRole('button', { name: 'Save Changes' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    // Deactivating ends the subscription now; the row keeps the plan it was on.
    await row.getByText('None', { exact: true }).waitFor();
    expect((await apiCall<{ isSubscribed: boolean }>('/auth/profile', user)).isSubscribed).toBe(false);
  });

  it('deletes a subscriber after the confirm; their session ends', async () => {
    const user = await registerUser();
    const { page } = await adminPage('/admin/subscribers');
    const row = await searchSubscriber(page, user.email);
    await row.getByRole('button', { name: `Delete ${user.email}` }).click();
    await dialog(page)
      .getByText(
        `Are you sure you want to delete subscriber "${user.email}"? This will permanently remove their access to the platform.`,
      )
      .waitFor();
    await dialog(page).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText(`Subscriber ${user.email} has been deleted successfully`).waitFor();
    await page.getByText(`No subscribers match “${user.email}”.`).waitFor();
    await expect(apiCall('/auth/profile', user)).rejects.toThrow(/→ 401/);
  });

  it('shows the protected admin without buttons', async () => {
    const { page } = await adminPage('/admin/subscribers');
    const row = await searchSubscriber(page, adminCredentials().email);
    await row.getByText('Protected account').waitFor();
    await row.getByText('Admin', { exact: true }).waitFor();
    expect(await row.getByRole('button').count()).toBe(0);
  });

  it('traps focus in the Manage Subscription dialog and closes it on Escape', async () => {
    const user = await registerUser();
    const { page } = await adminPage('/admin/subscribers');
    const row = await searchSubscriber(page, user.email);
    const manage = row.getByRole('button', { name: `Manage subscription of ${user.email}` });
    await manage.focus();
    await page.keyboard.press('Enter');
    await dialogOpen(page);
    await expectFocusTrapped(page);
    expect(await manage.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});

/** `0772123456` as the console writes it: `0772 123 456`. */
const spaced = (local: string) => `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`;

describe('support actions with context and delivery (issue 30 §12)', () => {
  it('the grant dialog shows the month and the movie, the note lands in the history, and both actions text the person', async () => {
    const user = await registerUser();
    await confirmPhone(user);
    const canonical = `256${user.phone.slice(1)}`;
    const clip = mp4Bytes(2048);
    const movie = await uploadMovie(clip, {
      title: `Lost Movie ${uniqueStamp()}`,
      category: 'Kinayuganda',
      planIds: [plan.id],
    });
    await subscribeUser(user.id, plan.id);
    await completeDownload(user, { id: movie.id, size: clip.length });
    await completeDownload(user, { id: movie.id, size: clip.length }, { redownload: true });
    const seen = new Set((await simulatorTexts(canonical)).map((m) => m.messageId));

    const { page } = await adminPage('/admin/subscribers', { theme: 'dark' });
    const row = await searchSubscriber(page, user.email);
    await row.getByRole('button', { name: `Grant a re-download to ${user.email}` }).click();
    const box = dialog(page);
    await box.getByRole('heading', { name: 'Grant a re-download?' }).waitFor();
    // What the operator decides from: this month's use against the allowance, the movie, and where the text goes.
    const month = box.getByRole('region', { name: 'What they used this month' });
    await month.getByText(movie.title).waitFor();
    await month.getByText('Re-downloaded 1 time this month').waitFor();
    await month.getByText('1 of 3', { exact: true }).waitFor();
    await month.getByText('0 unused', { exact: true }).waitFor();
    await month.getByText(`They get an SMS at ${spaced(user.phone)}.`).waitFor();
    await expectAccessible(page, 'grant a re-download, dark');
    await expectNoPageOverflow(page, 'grant dialog at 1280 px');

    const note = box.getByLabel('Note for their history (optional)');
    await note.fill('x'.repeat(281));
    await box.getByText('The note must be at most 280 characters.').waitFor();
    await note.fill('Phone stolen at the taxi park; movie lost.');
    await box.getByText('42 of 280 characters.', { exact: false }).waitFor();
    // Keyboard only: past Cancel to the grant button.
    await note.press('Tab');
    await page.keyboard.press('Tab');
    expect(
      await box.getByRole('button', { name: 'Grant a re-download' }).evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Enter');
    await box.waitFor({ state: 'detached' });
    await page.getByText(`SMS on its way to ${spaced(user.phone)}.`, { exact: false }).waitFor();
    expect(await textFromSimulator(canonical, { after: seen })).toBe(
      'Filamu: support gave you 1 extra re-download, kept until you use it. In Downloads, tap Download again on the movie you lost.',
    );

    // The password goes by SMS too, and is shown once.
    await row.getByRole('button', { name: `Reset password of ${user.email}` }).click();
    await box.getByText(`They get it by SMS at ${spaced(user.phone)}.`).waitFor();
    await box.getByRole('button', { name: 'Reset Password' }).click();
    await box.getByRole('heading', { name: 'New password' }).waitFor();
    const password = await box.getByLabel('New password').inputValue();
    await box.getByText(`SMS on its way to ${spaced(user.phone)}.`).waitFor();
    await box.getByRole('link', { name: 'Send via WhatsApp' }).waitFor();
    expect(await textFromSimulator(canonical, { accept: (text) => text.includes(password) })).toContain(
      `New password: ${password} `,
    );
    await box.getByRole('button', { name: 'Done' }).click();
    await box.waitFor({ state: 'detached' });

    // Both are in the person's history, newest first, with who, when, the note, and the text's fate.
    await row.getByRole('button', { name: `History of ${user.email}` }).click();
    const entries = box.getByRole('list', { name: 'Support actions, newest first' }).getByRole('listitem');
    await expect.poll(() => entries.count()).toBe(2);
    await entries.nth(0).getByText('Password reset').waitFor();
    await entries.nth(1).getByText('Re-download granted').waitFor();
    await entries.nth(1).getByText('Phone stolen at the taxi park; movie lost.').waitFor();
    await entries.nth(1).getByText(`(${adminCredentials().email})`, { exact: false }).waitFor();
    await expect
      .poll(() =>
        entries
          .nth(1)
          .getByText(/SMS (sent|delivered)/)
          .count(),
      )
      .toBe(1);
    expect(await box.textContent()).not.toContain(password);
    await expectAccessible(page, 'support history, dark');
    await expectFocusTrapped(page);
  });

  it('says no SMS goes to a phone that is not confirmed, for a grant and for a reset', async () => {
    const user = await registerUser();
    const { page } = await adminPage('/admin/subscribers');
    const row = await searchSubscriber(page, user.email);
    await row.getByRole('button', { name: `Grant a re-download to ${user.email}` }).click();
    const box = dialog(page);
    await box.getByText('They have not downloaded any movie yet.').waitFor();
    await box.getByText('No SMS: phone not confirmed.').waitFor();
    await box.getByRole('button', { name: 'Grant a re-download' }).click();
    await box.waitFor({ state: 'detached' });
    await page.getByText('No SMS: phone not confirmed.', { exact: false }).waitFor();

    await row.getByRole('button', { name: `Reset password of ${user.email}` }).click();
    await box.getByText('No SMS: phone not confirmed. Give it to them yourself.').waitFor();
    await box.getByRole('button', { name: 'Reset Password' }).click();
    await box.getByRole('heading', { name: 'New password' }).waitFor();
    await box.getByText('No SMS: phone not confirmed.', { exact: false }).waitFor();
    expect(await box.getByRole('link', { name: 'Send via WhatsApp' }).count()).toBe(0);
    const password = await box.getByLabel('New password').inputValue();
    await box.getByRole('button', { name: 'Done' }).click();
    await box.waitFor({ state: 'detached' });
    const texts = (await simulatorTexts(`256${user.phone.slice(1)}`)).map((m) => m.text);
    expect(texts.filter((text) => text.includes(password) || text.includes('re-download'))).toEqual([]);
  });
});

describe('Agents tab', () => {
  it('creates an agent who signs in with the shown-once password; reset, deactivate and delete it', async () => {
    const stamp = uniqueStamp();
    const name = `People Agent ${stamp}`;
    const email = `people-agent-${stamp}@filamu.test`;
    const { page } = await adminPage('/admin/agents');

    await page.getByRole('button', { name: 'Add Agent' }).click();
    const form = dialog(page);
    await form.getByRole('button', { name: 'Create Agent' }).click();
    await form.getByText('Full name is required.').waitFor();
    await form.getByLabel('Full name').fill(name);
    const phone = `0772${String(Date.now()).slice(-6)}`;
    await form.getByLabel('Phone number').fill(phone);
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByRole('button', { name: 'Create Agent' }).click();
    await form.getByText('Please enter a valid email address.').waitFor();
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Send credentials via').selectOption('none');
    await form.getByRole('button', { name: 'Create Agent' }).click();

    await form.getByText('This password is shown only once.', { exact: false }).waitFor();
    const firstPassword = await form.getByLabel('Generated password').inputValue();
    expect(firstPassword.length).toBeGreaterThanOrEqual(8);
    await form.getByRole('button', { name: 'Done' }).click();
    await form.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByText(adminCredentials().email).waitFor();

    // The agent signs in on a browser of its own with the password just shown.
    const agentContext = await browser.newContext({ baseURL: baseURL(), viewport: { width: 390, height: 844 } });
    contexts.push(agentContext);
    const agentPage = await agentContext.newPage();
    await login(agentPage, email, firstPassword, 'agent');
    await agentPage.waitForURL('**/dashboard');

    // Reset, sent by SMS: the toast carries the new password; the old one stops working, the new one works.
    await row.getByRole('button', { name: `Reset password of ${name}` }).click();
    await dialog(page).getByLabel('Send credentials via').selectOption('sms');
    await dialog(page).getByRole('button', { name: 'Reset Password' }).click();
    // The open dialog hides the toast from the accessibility tree, so it is found by its text.
    await page.getByText('Password Reset', { exact: true }).waitFor();
    const toastText = (await page.getByText(/^New password: /).textContent()) ?? '';
    const newPassword = toastText.replace('New password: ', '').trim();
    expect(newPassword).not.toBe(firstPassword);
    expect(await dialog(page).getByLabel('Generated password').inputValue()).toBe(newPassword);
    await dialog(page).getByText('The credentials are also being sent by SMS to the agent’s phone.').waitFor();
    // The agent's phone gets it (the simulator's inbox, read as the admin: decision 0147).
    expect(await textFromSimulator(`256${phone.slice(1)}`)).toContain(`Password: ${newPassword} `);
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    const deviceId = randomUUID();
    const oldLogin = await fetch(`${baseURL()}/api/auth/agent/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Device-Id': deviceId },
      body: JSON.stringify({ email, password: firstPassword, currentDeviceId: deviceId }),
    });
    expect(oldLogin.status).toBe(401);
    // The reset ended the agent's session too: at its next request the app sends the phone to the sign-in page. (Signing
    // in before it has found out raced that redirect, which reset the form to the person's mode mid-way.)
    await agentPage.reload();
    await agentPage.waitForURL('**/login');
    await login(agentPage, email, newPassword, 'agent');
    await agentPage.waitForURL('**/dashboard');

    // Deactivate: the agent's next request is refused and the app sends it to the login page.
    await row.getByRole('button', { name: `Deactivate ${name}` }).click();
    await row.getByText('Inactive', { exact: true }).waitFor();
    await agentPage.reload();
    await agentPage.waitForURL('**/login');

    await row.getByRole('button', { name: `Delete ${name}` }).click();
    await dialog(page)
      .getByText(`Are you sure you want to delete agent "${name}"? This action cannot be undone.`)
      .waitFor();
    await dialog(page).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Agent deleted successfully').waitFor();
    await row.waitFor({ state: 'detached' });
  });

  it('edits an agent with the email locked; the dialog traps focus and closes on Escape', async () => {
    const stamp = uniqueStamp();
    const admin = await adminSession();
    const email = `edit-agent-${stamp}@filamu.test`;
    await apiCall('/agents', {
      method: 'POST',
      ...admin,
      body: {
        full_name: `Edit Me ${stamp}`,
        phone: `07${String(Date.now()).slice(-8)}`,
        email,
        send_credentials_via: 'none',
      },
    });
    const { page } = await adminPage('/admin/agents');
    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByRole('button', { name: `Edit Edit Me ${stamp}` }).click();
    expect(await dialog(page).getByLabel('Email').isDisabled()).toBe(true);
    await dialog(page).getByLabel('Full name').fill(`Edited ${stamp}`);
    await dialog(page).getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Agent updated successfully').waitFor();
    await row.getByText(`Edited ${stamp}`).waitFor();

    await page.getByRole('button', { name: 'Add Agent' }).click();
    await dialogOpen(page);
    await expectFocusTrapped(page);
  });
});

describe('both tabs', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`pass axe in ${theme} mode`, async () => {
      for (const path of ['/admin/subscribers', '/admin/agents']) {
        const { page } = await adminPage(path, { theme });
        await page.locator('table:not([aria-busy])').waitFor();
        await expectAccessible(page, `${path} (${theme})`);
      }
      const { page } = await adminPage('/admin/agents', { theme });
      await page.getByRole('button', { name: 'Add Agent' }).click();
      await dialogOpen(page);
      await expectAccessible(page, `Add Agent dialog (${theme})`);
    });
  }

  it('the Add Agent dialog and its channel choice fit a 360 px phone', async () => {
    const { page } = await adminPage('/admin/agents', { width: 360, theme: 'dark' });
    await page.getByRole('button', { name: 'Add Agent' }).click();
    await dialogOpen(page);
    const channel = dialog(page).getByLabel('Send credentials via');
    await channel.selectOption('sms');
    expect(await channel.inputValue()).toBe('sms');
    await expectNoPageOverflow(page, 'Add Agent dialog at 360');
    await expectAccessible(page, 'Add Agent dialog at 360 (dark)');
  });

  for (const width of [1280, 1024]) {
    it(`do not widen the page at ${width} px`, async () => {
      for (const path of ['/admin/subscribers', '/admin/agents']) {
        const { page } = await adminPage(path, { width });
        await page.locator('table:not([aria-busy])').waitFor();
        await expectNoPageOverflow(page, `${path} at ${width}`);
      }
    });
  }
});
