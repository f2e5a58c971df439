import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser, login } from './support/browser.ts';
import {
  adminSession,
  type ApiSession,
  createPlan,
  registerUser,
  type SeededUser,
  signInContext,
  subscribeUser,
} from './support/seed.ts';

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const TABS = ['Profile', 'Subscription', 'Downloads', 'Security'];
const PHONES = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
];

let browser: Browser;
let planId: string;
let agent: ApiSession & { fullName: string };

/** An agent signed in through the API on a device of its own. */
async function createAgent(): Promise<ApiSession & { fullName: string }> {
  const admin = await adminSession();
  const email = `agent-profile-${Date.now().toString(36)}@filamu.test`;
  const fullName = 'Profile Screens Agent';
  const created = await apiCall<{ generatedPassword: string }>('/agents', {
    method: 'POST',
    ...admin,
    body: { full_name: fullName, phone: `07${String(Date.now()).slice(-8)}`, email, send_credentials_via: 'none' },
  });
  const deviceId = randomUUID();
  const { token } = await apiCall<{ token: string }>('/auth/agent/login', {
    method: 'POST',
    deviceId,
    body: { email, password: created.generatedPassword, currentDeviceId: deviceId },
  });
  return { token, deviceId, fullName };
}

beforeAll(async () => {
  browser = await launchBrowser();
  planId = (await createPlan()).id;
  agent = await createAgent();
});

afterAll(async () => {
  await browser?.close();
});

type Who = { kind: 'user'; session: ApiSession } | { kind: 'agent'; session: ApiSession };

/** A page signed in as `who` (its token put where the PWA keeps it), at a phone size, in a theme. */
async function open(
  who: Who,
  options: { theme?: 'light' | 'dark'; width?: number; height?: number } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseURL(),
    viewport: { width: options.width ?? 390, height: options.height ?? 844 },
  });
  const theme = options.theme ?? 'light';
  if (who.kind === 'user') await signInContext(context, who.session, theme);
  else {
    await context.addInitScript(
      ({ token, deviceId, theme }) => {
        localStorage.setItem('filamu.session', JSON.stringify({ token, kind: 'agent' }));
        localStorage.setItem('filamu.deviceId', deviceId);
        localStorage.setItem('theme', theme);
      },
      { ...who.session, theme },
    );
  }
  return { context, page: await context.newPage() };
}

const user = (session: ApiSession): Who => ({ kind: 'user', session });
const asAgent = (): Who => ({ kind: 'agent', session: agent });

/** No sideways scrolling: the page is no wider than the viewport. */
async function expectNoOverflow(page: Page, where: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${where} is ${scrollWidth}px wide in a ${innerWidth}px viewport`).toBeLessThanOrEqual(
    innerWidth,
  );
}

/** Every tab is inside the viewport and its name is not cut off. */
async function expectTabsReadable(page: Page, where: string): Promise<void> {
  const width = page.viewportSize()!.width;
  for (const name of TABS) {
    const tab = page.getByRole('tab', { name, exact: true });
    const box = (await tab.boundingBox())!;
    expect(box.x, `${where}: tab ${name}`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${where}: tab ${name}`).toBeLessThanOrEqual(width);
    const clipped = await tab.evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(clipped, `${where}: tab ${name} cut off`).toBe(false);
    expect((await tab.innerText()).trim()).toBe(name);
  }
}

/** Text each tab panel shows once loaded (the Downloads tab of someone with no downloads has no heading). */
const PANEL_TEXT: Record<string, RegExp> = {
  Profile: /^Personal information$/,
  Subscription: /^Subscription$/,
  Downloads: /^(No downloads yet|Download history)$/,
  Security: /^Change password$/,
};

async function showTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
  await page.getByRole('tabpanel').getByText(PANEL_TEXT[name]!).waitFor();
}

async function openProfile(page: Page): Promise<void> {
  await page.goto('/profile');
  await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
  await page.getByRole('tab', { name: 'Profile', exact: true }).waitFor();
}

const fullName = (page: Page) => page.getByLabel('Full Name');
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('name') ?? null);
const focusedText = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText);

describe('Profile editing', () => {
  it('edits the name by mouse: fields open and focus, Save sends it, the new name survives a reload', async () => {
    const person = await registerUser();
    const { context, page } = await open(user(person));
    try {
      await openProfile(page);
      expect(await fullName(page).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Edit Profile' }).click();
      await page.getByRole('button', { name: 'Save Changes' }).waitFor();
      expect(await fullName(page).isEnabled()).toBe(true);
      expect(await focusedName(page)).toBe('fullName');
      expect(await page.getByText('No changes').count()).toBe(0);

      await fullName(page).fill('Nakato Sarah');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Profile updated').waitFor();
      await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
      expect(await fullName(page).isDisabled()).toBe(true);
      expect(await focusedText(page)).toBe('Edit Profile');

      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
      await page.waitForFunction(
        () => (document.querySelector('input[name="fullName"]') as HTMLInputElement | null)?.value === 'Nakato Sarah',
      );

      // Save with nothing changed is the one time "No changes" is said.
      await page.getByRole('button', { name: 'Edit Profile' }).click();
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('No changes').waitFor();
      await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('edits by keyboard: Enter opens the fields, Enter saves; Space opens, Cancel restores and refocuses Edit', async () => {
    const person = await registerUser();
    const { context, page } = await open(user(person));
    try {
      await openProfile(page);
      await page.getByRole('button', { name: 'Edit Profile' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Save Changes' }).waitFor();
      expect(await focusedName(page)).toBe('fullName');
      expect(await page.getByText('No changes').count()).toBe(0);
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Okello James');
      await page.keyboard.press('Enter');
      await page.getByText('Profile updated').waitFor();
      expect(await focusedText(page)).toBe('Edit Profile');
      expect(await fullName(page).inputValue()).toBe('Okello James');

      await page.keyboard.press('Space');
      await page.getByRole('button', { name: 'Cancel' }).waitFor();
      expect(await focusedName(page)).toBe('fullName');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Someone Else');
      await page.keyboard.press('Tab'); // email
      await page.keyboard.press('Tab'); // Save Changes
      await page.keyboard.press('Tab'); // Cancel
      expect(await focusedText(page)).toBe('Cancel');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Edit Profile' }).waitFor();
      expect(await fullName(page).inputValue()).toBe('Okello James');
      expect(await focusedText(page)).toBe('Edit Profile');
    } finally {
      await context.close();
    }
  });

  it('asks for the current password to change the email, and refuses a wrong one on its field', async () => {
    const person = await registerUser();
    const { context, page } = await open(user(person));
    try {
      await openProfile(page);
      await page.getByRole('button', { name: 'Edit Profile' }).click();
      const currentPassword = page.getByLabel('Current Password', { exact: true });
      // A name alone needs no password: the field appears only once the email differs.
      expect(await currentPassword.count()).toBe(0);
      const newEmail = `moved.${Date.now()}@filamu.test`;
      await page.getByLabel('Email', { exact: true }).fill(newEmail);
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Enter your current password to change your email.').waitFor();
      expect(await focusedName(page)).toBe('currentPassword');

      await currentPassword.fill('not my password');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Current password is incorrect.').waitFor();
      expect(await focusedName(page)).toBe('currentPassword');

      await currentPassword.fill(person.password);
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Profile updated').waitFor();
      expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(newEmail);
      expect(await currentPassword.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('shows a taken email on the email field, without a toast repeating it', async () => {
    const person = await registerUser();
    const other = await registerUser();
    const { context, page } = await open(user(person));
    try {
      await openProfile(page);
      await page.getByRole('button', { name: 'Edit Profile' }).click();
      await page.getByLabel('Email', { exact: true }).fill(other.email);
      await page.getByLabel('Current Password', { exact: true }).fill(person.password);
      await page.getByRole('button', { name: 'Save Changes' }).click();
      const email = page.getByLabel('Email', { exact: true });
      await page.waitForFunction(() => document.querySelector('input[name="email"]')?.getAttribute('aria-invalid'));
      const message = await email.evaluate(
        (el) => document.getElementById(el.getAttribute('aria-describedby')!.split(' ').pop()!)?.textContent,
      );
      expect(message).toBe('An account with this email already exists.');
      expect(await page.getByText('An account with this email already exists.').count()).toBe(1);
      expect(await focusedName(page)).toBe('email');
    } finally {
      await context.close();
    }
  });
});

describe('Who is offered a purchase', () => {
  it('does not offer the admin a subscription: staff access on the dashboard and the profile', async () => {
    const { context, page } = await open(user(await adminSession()));
    try {
      await page.goto('/dashboard');
      await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
      await page.getByText('Staff access — full library').waitFor();
      const main = await page.locator('#main').innerText();
      for (const words of ['No active subscription', 'Free Trial', 'Subscribe Now', 'Subscribe'])
        expect(main).not.toContain(words);
      expect(await page.locator('#main a[href="/subscription"]').count()).toBe(0);

      await openProfile(page);
      await page.locator('#main').getByText('Staff access', { exact: true }).waitFor();
      await page.getByRole('tab', { name: 'Subscription' }).click();
      await page.getByRole('tabpanel').getByText('Staff access — full library').waitFor();
      const panel = await page.getByRole('tabpanel').innerText();
      for (const words of ['Choose a plan', 'Free Trial', 'No plan yet', 'Renew']) expect(panel).not.toContain(words);
    } finally {
      await context.close();
    }
  });

  it('never offers an agent a purchase on the dashboard or the profile', async () => {
    const { context, page } = await open(asAgent());
    try {
      await page.goto('/dashboard');
      await page.getByRole('heading', { level: 1, name: `Welcome, ${agent.fullName}` }).waitFor();
      await page.getByRole('region', { name: 'Subscription status' }).getByText('Agent Access').waitFor();
      for (const path of ['/dashboard', '/profile']) {
        if (path === '/profile') {
          await page.goto(path);
          await page.getByRole('heading', { level: 1, name: 'Agent Profile' }).waitFor();
          // The agent's English movies wait for the Kinayuganda ones: the profile says so, and promises nothing more.
          const access = page.getByRole('list', { name: 'What agent access includes' });
          await access.getByText('English movies open once every Kinayuganda movie is downloaded').waitFor();
          expect(await page.locator('#main').innerText()).not.toMatch(/no download restrictions|unlimited/i);
        }
        const main = await page.locator('#main').innerText();
        for (const words of ['No active subscription', 'Free Trial', 'Subscribe', 'Choose a plan'])
          expect(main, path).not.toContain(words);
        expect(await page.locator('#main a[href="/subscription"]').count(), path).toBe(0);
      }
    } finally {
      await context.close();
    }
  });

  it('takes a subscriber from the profile to /subscription to renew or change plan; others get Choose a plan', async () => {
    const subscriber = await registerUser();
    const features = ['Every Kinayuganda movie', 'Two English movies a week'];
    const plan = await createPlan({ features });
    await subscribeUser(subscriber.id, plan.id);
    const { context, page } = await open(user(subscriber));
    try {
      await openProfile(page);
      await page.getByRole('tab', { name: 'Subscription' }).click();
      // The benefits are the plan's own features, never a fixed list ("4K quality", "Priority support").
      const benefits = page.getByRole('list', { name: 'Your plan’s benefits' });
      expect(await benefits.getByRole('listitem').allInnerTexts()).toEqual(features);
      expect(await page.getByRole('button', { name: 'Manage Subscription' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Renew or change plan' }).click();
      await page.waitForURL('**/subscription');
      await page.getByRole('heading', { level: 1, name: 'Renew or change your plan' }).waitFor();
    } finally {
      await context.close();
    }

    const free = await open(user(await registerUser()));
    try {
      await openProfile(free.page);
      await free.page.getByRole('tab', { name: 'Subscription' }).click();
      // No trial exists, so none is named; the benefits are what an account without a plan can really do.
      const panel = free.page.getByRole('tabpanel');
      await panel.getByText('No plan yet').waitFor();
      await panel.getByRole('list', { name: 'Without a plan' }).waitFor();
      expect(await panel.innerText()).not.toMatch(/trial|unlimited|4K|priority support|early access/i);
      await free.page.getByRole('link', { name: 'Choose a plan' }).click();
      await free.page.waitForURL('**/subscription');
    } finally {
      await free.context.close();
    }
  });
});

describe('Security tab', () => {
  it('shows the browser, system and sign-in time of this device, never its id', async () => {
    const person = await registerUser();
    const context = await browser.newContext({
      baseURL: baseURL(),
      viewport: { width: 390, height: 844 },
      userAgent: ANDROID_CHROME,
    });
    const page = await context.newPage();
    try {
      await login(page, person.email, person.password);
      await page.waitForURL('**/dashboard');
      await openProfile(page);
      await page.getByRole('tab', { name: 'Security' }).click();
      const panel = page.getByRole('tabpanel');
      await panel.getByText('Chrome on Android').waitFor();
      await panel.getByText('This device').waitFor();
      await panel
        .getByText(
          /^Signed in since \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, last active just now$/,
        )
        .waitFor();
      const deviceId = await page.evaluate(() => localStorage.getItem('filamu.deviceId'));
      const text = await page.locator('#main').innerText();
      expect(text).not.toMatch(UUID);
      expect(text).not.toContain(deviceId!);
    } finally {
      await context.close();
    }
  });
});

describe('Small screens, titles and accessibility', () => {
  // Six phones, each through the dashboard, the profile and its four tabs: a sweep, longer than one screen's test.
  it('fits 360 and 390 px phones with every tab name readable, for user, agent and admin', async () => {
    const people: Array<[string, Who]> = [
      ['user', user(await registerUser())],
      ['agent', asAgent()],
      ['admin', user(await adminSession())],
    ];
    for (const [label, who] of people) {
      for (const size of PHONES) {
        const { context, page } = await open(who, size);
        const where = (path: string) => `${label} ${path} at ${size.width}px`;
        try {
          await page.goto('/dashboard');
          await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
          await page.getByRole('region', { name: 'Download Stats' }).locator('dl').waitFor();
          await expectNoOverflow(page, where('/dashboard'));

          await page.goto('/profile');
          if (label === 'agent') {
            await page.getByRole('heading', { level: 1, name: 'Agent Profile' }).waitFor();
            await expectNoOverflow(page, where('/profile'));
            continue;
          }
          await openProfile(page);
          await expectTabsReadable(page, where('/profile'));
          for (const name of TABS) {
            await showTab(page, name);
            await expectNoOverflow(page, where(`/profile ${name}`));
          }
        } finally {
          await context.close();
        }
      }
    }
  }, 180_000);

  it('keeps long names and emails inside a 360 px phone', async () => {
    const person = await registerUser();
    const long = 'Namukasa Christine Nabukeera Ssekandi Wasswa Kato Nakimuli Mirembe';
    await apiCall('/users/profile', {
      method: 'PUT',
      ...person,
      body: {
        fullName: long,
        email: `a.very.long.address.${Date.now()}@kampala-movie-lovers.filamu.test`,
        currentPassword: person.password,
      },
    });
    const { context, page } = await open(user(person), { width: 360, height: 740 });
    try {
      await page.goto('/dashboard');
      await page.getByRole('heading', { level: 1, name: `Welcome, ${long}` }).waitFor();
      await expectNoOverflow(page, 'long name /dashboard');
      await openProfile(page);
      await expectNoOverflow(page, 'long email /profile');
    } finally {
      await context.close();
    }
  });

  it('titles each screen and has one h1 on it', async () => {
    const cases: Array<[Who, string, string]> = [
      [user(await registerUser()), '/dashboard', 'Dashboard · Filamu'],
      [user(await registerUser()), '/profile', 'My Profile · Filamu'],
      [asAgent(), '/profile', 'Agent Profile · Filamu'],
      [asAgent(), '/dashboard', 'Dashboard · Filamu'],
    ];
    for (const [who, path, title] of cases) {
      const { context, page } = await open(who);
      try {
        await page.goto(path);
        await page.locator('#main h1').waitFor();
        await page.waitForFunction((expected) => document.title === expected, title);
        expect(await page.locator('h1').count(), path).toBe(1);
      } finally {
        await context.close();
      }
    }
  });

  // One test per theme: each visits four people's dashboards and every profile tab, and axe is slow on a busy machine.
  it.each(['light', 'dark'] as const)(
    'has no serious or critical axe violations in %s',
    async (theme) => {
      const subscriber: SeededUser = await registerUser();
      await subscribeUser(subscriber.id, planId);
      // A plan ending in 5 days: the red "time left" badge (product §2, ≤ 7 days) is checked too.
      const soon = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
      const ending = await registerUser();
      await subscribeUser(ending.id, (await createPlan({ global_expiry_date: `${soon}T23:59` })).id);
      const free = await registerUser();
      const admin = await adminSession();
      for (const [label, who] of [
        ['subscriber', user(subscriber)],
        ['ending subscriber', user(ending)],
        ['free', user(free)],
        ['admin', user(admin)],
      ] as const) {
        const { context, page } = await open(who, { theme });
        try {
          await page.goto('/dashboard');
          await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
          await page.getByRole('region', { name: 'Download Stats' }).locator('dl').waitFor();
          if (label === 'ending subscriber') await page.getByText(/^[4-6] days?( \d+ hours?)? left$/).waitFor();
          await expectAccessible(page, `${label} /dashboard (${theme})`);
          await openProfile(page);
          for (const name of TABS) {
            await showTab(page, name);
            if (name === 'Profile') {
              await page.getByRole('button', { name: 'Edit Profile' }).click();
              await page.getByRole('button', { name: 'Save Changes' }).waitFor();
            }
            await expectAccessible(page, `${label} /profile ${name} (${theme})`);
          }
        } finally {
          await context.close();
        }
      }
      const { context, page } = await open(asAgent(), { theme });
      try {
        for (const [path, heading] of [
          ['/dashboard', `Welcome, ${agent.fullName}`],
          ['/profile', 'Agent Profile'],
        ] as const) {
          await page.goto(path);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          await expectAccessible(page, `agent ${path} (${theme})`);
        }
      } finally {
        await context.close();
      }
    },
    180_000,
  );

  it('shows keyboard focus on the tabs and the tab panel with a contrasting outline', async () => {
    const { context, page } = await open(user(await registerUser()));
    try {
      await openProfile(page);
      await page.getByRole('tab', { name: 'Profile', exact: true }).focus();
      await page.keyboard.press('ArrowRight');
      const tab = page.getByRole('tab', { name: 'Subscription' });
      expect(await tab.getAttribute('aria-selected')).toBe('true');
      const tabOutline = await tab.evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(tabOutline).toBe('solid');
      await page.keyboard.press('Tab');
      const panelOutline = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return { role: el.getAttribute('role'), style: getComputedStyle(el).outlineStyle };
      });
      expect(panelOutline).toEqual({ role: 'tabpanel', style: 'solid' });
    } finally {
      await context.close();
    }
  });
});
