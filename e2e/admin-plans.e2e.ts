import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser } from './support/browser.ts';
import {
  adminSession,
  type ApiSession,
  createPlan,
  mp4Bytes,
  registerUser,
  type SeededMovie,
  signInContext,
  subscribeUser,
  uniqueStamp,
  uploadMovie,
} from './support/seed.ts';

/**
 * Admin → Plans as the admin uses it: create with the 12-hour expiry entry, see the plan in the list and on a
 * customer's /subscription, edit it, be told why a plan in use cannot be deleted, delete an unused one, the
 * empty-form messages, keyboard-only use, and axe in both themes; the movies a plan includes, chosen on its form. The admin is never logged out (the session
 * is shared by the whole file).
 */
interface AdminPlanJson {
  id: string;
  plan_name: string;
  price_ugx: number;
  is_visible: boolean;
  global_expiry_date: string;
  movie_count: number;
}

interface AdminMovieJson {
  id: string;
  category: 'Kinayuganda' | 'English';
  plan_ids: string[];
}

let browser: Browser;
let admin: ApiSession;
const year = new Date().getFullYear() + 1;
/** Movies already in the library and in no plan: only a plan's own form gives them one. */
let kinayuganda: SeededMovie;
let english: SeededMovie;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await adminSession();
  const stamp = uniqueStamp();
  kinayuganda = await uploadMovie(mp4Bytes(2048), { title: `Plan Pick K ${stamp}`, category: 'Kinayuganda' });
  english = await uploadMovie(mp4Bytes(2048), { title: `Plan Pick E ${stamp}`, category: 'English', vj: 'VJ Pick' });
});

afterAll(async () => {
  await browser?.close();
});

async function openPlans(theme: 'light' | 'dark' = 'light'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseURL(), viewport: { width: 1280, height: 900 } });
  await signInContext(context, admin, theme);
  const page = await context.newPage();
  await page.goto('/admin/plans');
  await page.getByRole('heading', { level: 1, name: 'Plans' }).waitFor();
  await page.getByRole('heading', { name: /^Subscription plans \(\d+\)$/ }).waitFor();
  return { context, page };
}

/** One plan in the list: the item whose heading is the plan's name. */
function planItem(page: Page, name: string): Locator {
  return page
    .getByRole('region', { name: /Subscription plans/ })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });
}

/**
 * A Headless UI dialog by its title, once shown (its outer element has no box of its own, so Playwright
 * never calls the dialog itself visible: wait for the title inside).
 */
async function openDialog(page: Page, name: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name });
  await dialog.getByRole('heading', { name }).waitFor();
  return dialog;
}

async function adminPlans(): Promise<AdminPlanJson[]> {
  return (await apiCall<{ plans: AdminPlanJson[] }>('/admin/subscription-plans', admin)).plans;
}

/** "1 movie", "1,234 movies": as the plan form and list say it. */
const movieCount = (n: number) => `${n.toLocaleString('en-US')} movie${n === 1 ? '' : 's'}`;

async function adminMovies(): Promise<AdminMovieJson[]> {
  return (await apiCall<{ movies: AdminMovieJson[] }>('/admin/movies', admin)).movies;
}

async function fillRequired(page: Page, name: string, price: string, order: string): Promise<void> {
  await page.getByLabel('Plan name').fill(name);
  await page.getByLabel('Price (UGX)').fill(price);
  await page.getByLabel('Display order').fill(order);
  await page.getByLabel('Expiry date').fill(`${year}-12-31`);
  await page.getByLabel('Features', { exact: true }).fill('  HD downloads \n\n Two devices\n');
}

/** The focused element's name as a screen reader would say it (label, aria-label/labelledby, or text). */
function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return '';
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy) {
      return labelledBy
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
        .trim();
    }
    const label = (el as HTMLInputElement).labels?.[0]?.textContent;
    return (el.getAttribute('aria-label') ?? label ?? el.textContent ?? '').trim();
  });
}

/** Presses Tab until the element named `name` has focus (fails if it is never reached). */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 40; i += 1) {
    await page.keyboard.press('Tab');
    if ((await focusedName(page)) === name) return;
  }
  throw new Error(`Tab never reached "${name}"`);
}

describe('Admin → Plans', () => {
  it('creates a plan with the 11:59 PM quick button; it is listed with its badges and offered to a new user', async () => {
    const name = `E2E Night ${uniqueStamp()}`;
    const { context, page } = await openPlans();
    try {
      await fillRequired(page, name, '25000', '-50');
      await page.getByLabel('Description', { exact: true }).fill('Until the last minute of the year');
      await page.getByRole('button', { name: '11:59 PM' }).click();
      await page.getByText(`Access ends 31 Dec ${year}, 11:59 PM Kampala time.`).waitFor();
      // Without a movie it could not be sold, so it would not be offered to the customer below.
      await page.getByRole('button', { name: 'Select all Kinayuganda' }).click();
      await page.getByRole('button', { name: 'Create Plan' }).click();
      await page.getByText('Plan created successfully').waitFor();

      const item = planItem(page, name);
      await item.waitFor();
      const text = await item.innerText();
      expect(text).toContain('UGX 25,000');
      expect(text).toContain(`Expires 31 Dec ${year}, 11:59 PM (Kampala)`);
      expect(text).toContain('Until the last minute of the year');
      for (const badge of ['Active', 'Visible', 'Order: -50', 'HD downloads', 'Two devices']) {
        await item.getByText(badge, { exact: true }).waitFor();
      }
      // Create resets the form.
      expect(await page.getByLabel('Plan name').inputValue()).toBe('');
      expect(await page.getByLabel('Hour').inputValue()).toBe('12');

      const saved = (await adminPlans()).find((p) => p.plan_name === name);
      expect(saved?.global_expiry_date).toBe(`${year}-12-31T23:59`);
      expect(saved?.movie_count).toBeGreaterThan(0);
    } finally {
      await context.close();
    }

    const customer = await browser.newContext({ baseURL: baseURL(), viewport: { width: 1280, height: 900 } });
    try {
      await signInContext(customer, await registerUser());
      const page = await customer.newPage();
      await page.goto('/subscription');
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
      await card.waitFor();
      expect(await card.innerText()).toContain(`Access until 31 Dec ${year}, 11:59 PM`);
      expect(await card.innerText()).toContain('UGX 25,000');
    } finally {
      await customer.close();
    }
  });

  it('gives a new plan existing movies (a whole category and one found by search); its subscriber can download them', async () => {
    const name = `E2E Movies ${uniqueStamp()}`;
    const { context, page } = await openPlans();
    try {
      await fillRequired(page, name, '3500', '0');
      const chooser = page.getByRole('group', { name: 'Movies in this plan' });
      await chooser.getByRole('button', { name: 'Select all Kinayuganda' }).click();
      const kinayugandaIds = (await adminMovies()).filter((m) => m.category === 'Kinayuganda').map((m) => m.id);
      await chooser.getByText(`${movieCount(kinayugandaIds.length)} chosen`, { exact: true }).waitFor();
      await chooser.getByLabel('Search movies').fill(english.title);
      const pick = chooser.getByRole('checkbox', { name: new RegExp(english.title) });
      expect(await pick.isChecked()).toBe(false);
      await pick.check();
      await chooser.getByText(`${movieCount(kinayugandaIds.length + 1)} chosen`, { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Create Plan' }).click();
      await page.getByText('Plan created successfully').waitFor();

      const plan = (await adminPlans()).find((p) => p.plan_name === name)!;
      const inPlan = (await adminMovies()).filter((m) => m.plan_ids.includes(plan.id)).map((m) => m.id);
      expect(inPlan.sort()).toEqual([...kinayugandaIds, english.id].sort());
      const item = planItem(page, name);
      expect(await item.innerText()).toContain(movieCount(inPlan.length));
      expect(await item.getByText(/cannot be sold/).count()).toBe(0);

      // The subscriber of the new plan gets a link for a movie that was in no plan before.
      const subscriber = await registerUser();
      await subscribeUser(subscriber.id, plan.id);
      const link = await apiCall<{ downloadUrl: string; fileSize: number }>('/users/movies/generate-download-url', {
        method: 'POST',
        token: subscriber.token,
        deviceId: subscriber.deviceId,
        body: { movieId: kinayuganda.id },
      });
      expect(link).toMatchObject({ fileSize: 2048, downloadUrl: expect.any(String) });

      // Edit: the form shows the plan's movies ticked; unticking one takes it out.
      await item.getByRole('button', { name: `Edit ${name}` }).click();
      await page.getByRole('heading', { name: `Edit plan: ${name}` }).waitFor();
      await chooser.getByLabel('Search movies').fill(english.title);
      expect(await pick.isChecked()).toBe(true);
      await pick.uncheck();
      await page.getByRole('button', { name: 'Update Plan' }).click();
      await page.getByText('Plan updated successfully').waitFor();
      expect((await adminMovies()).find((m) => m.id === english.id)?.plan_ids).not.toContain(plan.id);

      // A plan customers would see with nothing in it is flagged.
      const empty = await createPlan({ plan_name: `E2E Empty ${uniqueStamp()}` });
      await page.reload();
      await planItem(page, empty.plan_name).getByText('No movies — cannot be sold').waitFor();
      expect(await planItem(page, empty.plan_name).innerText()).toContain('0 movies');
    } finally {
      await context.close();
    }
  });

  it('takes a typed 12:30 PM, then edits the plan from a form filled from it', async () => {
    const name = `E2E Noon ${uniqueStamp()}`;
    const { context, page } = await openPlans();
    try {
      await fillRequired(page, name, '15000', '7');
      await page.getByLabel('Hour').fill('12');
      await page.getByLabel('Minute').fill('30');
      await page.getByLabel('AM/PM').selectOption('PM');
      await page.getByRole('switch', { name: 'Visible to customers' }).click();
      await page.getByRole('button', { name: 'Create Plan' }).click();
      await page.getByText('Plan created successfully').waitFor();
      const item = planItem(page, name);
      await item.getByText('Hidden', { exact: true }).waitFor();
      expect(await item.innerText()).toContain(`Expires 31 Dec ${year}, 12:30 PM (Kampala)`);
      expect((await adminPlans()).find((p) => p.plan_name === name)?.global_expiry_date).toBe(`${year}-12-31T12:30`);

      await item.getByRole('button', { name: `Edit ${name}` }).click();
      const heading = page.getByRole('heading', { name: `Edit plan: ${name}` });
      await heading.waitFor();
      expect(await focusedName(page)).toBe(`Edit plan: ${name}`);
      expect(await page.getByLabel('Plan name').inputValue()).toBe(name);
      expect(await page.getByLabel('Price (UGX)').inputValue()).toBe('15000');
      expect(await page.getByLabel('Display order').inputValue()).toBe('7');
      expect(await page.getByLabel('Expiry date').inputValue()).toBe(`${year}-12-31`);
      expect(await page.getByLabel('Hour').inputValue()).toBe('12');
      expect(await page.getByLabel('Minute').inputValue()).toBe('30');
      expect(await page.getByLabel('AM/PM').inputValue()).toBe('PM');
      expect(await page.getByLabel('Features', { exact: true }).inputValue()).toBe('HD downloads\nTwo devices');
      expect(await page.getByRole('switch', { name: 'Visible to customers' }).getAttribute('aria-checked')).toBe(
        'false',
      );

      await page.getByLabel('Price (UGX)').fill('30000');
      await page.getByRole('button', { name: 'Update Plan' }).click();
      await page.getByText('Plan updated successfully').waitFor();
      await item.getByText('UGX 30,000').waitFor();
      await page.getByRole('heading', { name: 'Add a plan' }).waitFor();
      const saved = (await adminPlans()).find((p) => p.plan_name === name);
      expect(saved).toMatchObject({ price_ugx: 30000, global_expiry_date: `${year}-12-31T12:30`, is_visible: false });

      // Cancel leaves edit mode without saving.
      await item.getByRole('button', { name: `Edit ${name}` }).click();
      await page.getByLabel('Price (UGX)').fill('1');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('heading', { name: 'Add a plan' }).waitFor();
      expect(await page.getByLabel('Price (UGX)').inputValue()).toBe('');
      expect((await adminPlans()).find((p) => p.plan_name === name)?.price_ugx).toBe(30000);
    } finally {
      await context.close();
    }
  });

  it('explains in words why a plan in use cannot be deleted, and offers to hide it instead', async () => {
    const plan = await createPlan({ plan_name: `E2E In Use ${uniqueStamp()}` });
    const user = await registerUser();
    await subscribeUser(user.id, plan.id);
    const { context, page } = await openPlans();
    try {
      const item = planItem(page, plan.plan_name);
      await item.getByText('1 current subscriber').waitFor();
      await item.getByRole('button', { name: `Delete ${plan.plan_name}` }).click();
      const confirm = await openDialog(page, 'Delete plan?');
      await confirm
        .getByText(`Are you sure you want to delete the "${plan.plan_name}" plan? This action cannot be undone.`)
        .waitFor();
      await confirm.getByRole('button', { name: 'Delete', exact: true }).click();

      const explain = await openDialog(page, `“${plan.plan_name}” cannot be deleted`);
      const said = await explain.innerText();
      expect(said).toContain(
        'Failed to delete plan: This plan has subscribers or payments and cannot be deleted. Deactivate or hide it instead.',
      );
      expect(said).toContain('This plan is in use: 1 current subscriber holds it.');
      expect(said).toContain('To stop selling it, hide it');
      await explain.getByRole('button', { name: 'Hide from customers' }).click();
      await page.getByText('Plan updated successfully').waitFor();
      await explain.waitFor({ state: 'detached' });
      await item.getByText('Hidden', { exact: true }).waitFor();
      expect((await adminPlans()).find((p) => p.id === plan.id)?.is_visible).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('deletes an unused plan after the confirm dialog', async () => {
    const plan = await createPlan({ plan_name: `E2E Unused ${uniqueStamp()}` });
    const { context, page } = await openPlans();
    try {
      const item = planItem(page, plan.plan_name);
      await item.getByRole('button', { name: `Delete ${plan.plan_name}` }).click();
      const confirm = await openDialog(page, 'Delete plan?');
      // Cancel first: nothing happens.
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
      await item.waitFor();
      await item.getByRole('button', { name: `Delete ${plan.plan_name}` }).click();
      await openDialog(page, 'Delete plan?');
      await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByText('Plan deleted successfully').waitFor();
      await item.waitFor({ state: 'detached' });
      expect((await adminPlans()).some((p) => p.id === plan.id)).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('says what each required field needs when the empty form is submitted', async () => {
    const { context, page } = await openPlans();
    try {
      await page.getByLabel('Display order').fill('');
      await page.getByRole('button', { name: 'Create Plan' }).click();
      await page.getByRole('alert').filter({ hasText: 'Please fix the fields marked above.' }).waitFor();
      for (const message of [
        'Plan name is required.',
        'Price is required.',
        'Display order is required.',
        'Expiry date is required.',
        'Add at least one feature, one per line.',
      ]) {
        await page.getByText(message, { exact: true }).waitFor();
      }
      expect(await focusedName(page)).toBe('Plan name');
      expect(await page.getByLabel('Plan name').getAttribute('aria-invalid')).toBe('true');
      await page.getByLabel('Price (UGX)').fill('10.5');
      await page.getByLabel('Hour').fill('13');
      await page.getByRole('button', { name: 'Create Plan' }).click();
      await page.getByText('Price must be a whole number of UGX, 0 or more.').waitFor();
      await page.getByText('Enter the hour as a number from 1 to 12.').waitFor();
      await expectAccessible(page, 'plans form with errors');
    } finally {
      await context.close();
    }
  });

  it('is fully operable with the keyboard alone', async () => {
    const name = `E2E Keys ${uniqueStamp()}`;
    const { context, page } = await openPlans();
    try {
      await page.getByRole('heading', { level: 1, name: 'Plans' }).focus();
      await tabTo(page, 'Plan name');
      await page.keyboard.type(name);
      await tabTo(page, 'Price (UGX)');
      await page.keyboard.type('5000');
      await tabTo(page, 'Display order');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('3');
      await tabTo(page, 'Expiry date');
      // Chromium's date field takes the digits segment by segment (en-US: month, day, year).
      await page.keyboard.type(`1231${year}`);
      await tabTo(page, 'Hour');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('9');
      await tabTo(page, 'Minute');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('15');
      await tabTo(page, 'AM/PM');
      await page.keyboard.press('ArrowDown');
      await tabTo(page, '11:59 AM');
      await tabTo(page, 'Features');
      await page.keyboard.type('Keyboard feature');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Second line');
      await tabTo(page, 'Visible to customers');
      await page.keyboard.press('Space');
      await tabTo(page, 'Create Plan');
      await page.keyboard.press('Enter');
      await page.getByText('Plan created successfully').waitFor();
      const item = planItem(page, name);
      await item.getByText('Hidden', { exact: true }).waitFor();
      expect(await item.innerText()).toContain(`Expires 31 Dec ${year}, 9:15 PM (Kampala)`);

      // Edit and Delete are reachable too; Escape closes the confirm dialog without deleting.
      await item.getByRole('button', { name: `Delete ${name}` }).focus();
      await page.keyboard.press('Enter');
      const confirm = await openDialog(page, 'Delete plan?');
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'detached' });
      expect(await focusedName(page)).toBe(`Delete ${name}`);
      await page.keyboard.press('Shift+Tab');
      expect(await focusedName(page)).toBe(`Edit ${name}`);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: `Edit plan: ${name}` }).waitFor();
      expect(await page.getByLabel('AM/PM').inputValue()).toBe('PM');
    } finally {
      await context.close();
    }
  });

  it('passes axe in light and dark, list and dialogs included', async () => {
    const plan = await createPlan({ plan_name: `E2E Axe ${uniqueStamp()}`, is_visible: false });
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await openPlans(theme);
      try {
        await planItem(page, plan.plan_name).waitFor();
        await expectAccessible(page, `/admin/plans (${theme})`);
        await planItem(page, plan.plan_name)
          .getByRole('button', { name: `Delete ${plan.plan_name}` })
          .click();
        await openDialog(page, 'Delete plan?');
        await expectAccessible(page, `/admin/plans delete dialog (${theme})`);
        await page.keyboard.press('Escape');
      } finally {
        await context.close();
      }
    }
  });
});
