import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, signInAdmin } from './support/api.ts';
import { launchBrowser, login, newContext } from './support/browser.ts';
import { uniqueStamp } from './support/seed.ts';

/** Agents and sign-in (issue 20 §8): no Register for agents, their own password, and a sign-in that says what to type. */

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** A new agent as the admin creates it, with the generated password the admin passes on. */
async function newAgent(): Promise<{ email: string; password: string }> {
  const admin = await signInAdmin();
  const email = `agent-pw-${uniqueStamp()}@filamu.test`;
  const { generatedPassword } = await apiCall<{ generatedPassword: string }>('/agents', {
    method: 'POST',
    token: admin.token,
    deviceId: admin.deviceId,
    body: { full_name: 'Agent Sanyu', phone: '0772 555 014', email, send_credentials_via: 'none' },
  });
  return { email, password: generatedPassword };
}

describe('Agents and sign-in', () => {
  it('lets an agent replace the generated password from the profile; the old one stops working', async () => {
    const agent = await newAgent();
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Register' }).waitFor();
      await page.getByRole('radio', { name: 'Agent Login' }).click();
      // Agents never register: the link goes with the mode.
      await page.getByText('Agent accounts are created by the Filamu admin.').waitFor();
      expect(await page.getByRole('link', { name: 'Register' }).count()).toBe(0);

      await login(page, agent.email, agent.password, 'agent');
      await page.waitForURL('**/dashboard');
      await page.goto('/profile');
      await page.getByRole('heading', { level: 1, name: 'Agent Profile' }).waitFor();
      const security = page.getByRole('region', { name: 'Security' });
      await security.getByRole('textbox', { name: 'Current Password' }).fill('not the generated one');
      await security.getByRole('textbox', { name: 'New Password', exact: true }).fill('sanyu-own-password');
      await security.getByRole('textbox', { name: 'Confirm New Password' }).fill('sanyu-own-password');
      await security.getByRole('button', { name: 'Update Password' }).click();
      await security.getByText('Current password is incorrect.').waitFor();

      await security.getByRole('textbox', { name: 'Current Password' }).fill(agent.password);
      await security.getByRole('button', { name: 'Update Password' }).click();
      await page.getByText('Password changed successfully.').waitFor();
      // This device stays signed in.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Agent Profile' }).waitFor();
    } finally {
      await context.close();
    }

    const fresh = await newContext(browser);
    const again = await fresh.newPage();
    try {
      await login(again, agent.email, agent.password, 'agent');
      await again.getByText('Invalid agent credentials. Please try again.').waitFor();
      await login(again, agent.email, 'sanyu-own-password', 'agent');
      await again.waitForURL('**/dashboard');
    } finally {
      await fresh.close();
    }
  });

  it('says what to type when a sign-in is neither an email nor a phone number, before asking the server', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const logins: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/') && request.method() === 'POST') logins.push(request.url());
    });
    try {
      await login(page, 'sanyu nakato', 'whatever-it-was');
      const field = page.getByLabel('Email or phone');
      await page.getByText('Enter your email or your phone number, like 0772 123 456.').waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByText('Invalid credentials').count()).toBe(0);

      await page.getByRole('radio', { name: 'Agent Login' }).click();
      await page.getByLabel('Agent email').fill('0772123456');
      await page.getByLabel('Password', { exact: true }).fill('whatever-it-was');
      await page.getByRole('button', { name: 'Sign in as Agent', exact: true }).click();
      await page.getByText('Agents sign in with their email, like name@example.com.').waitFor();
      expect(logins).toEqual([]);

      // A real identifier still gets the one answer for any unknown account.
      await page.getByRole('radio', { name: 'User Login' }).click();
      await page.getByLabel('Email or phone').fill('0772 999 321');
      await page.getByLabel('Password', { exact: true }).fill('whatever-it-was');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.getByText('Invalid credentials. Please try again.').waitFor();
      expect(logins).toHaveLength(1);
    } finally {
      await context.close();
    }
  });
});
