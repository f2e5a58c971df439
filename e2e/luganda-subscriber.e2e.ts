import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './support/axe.ts';
import { catalogue, filled, pattern, wearTheme } from './support/catalogue.ts';
import { baseURL, launchBrowser, newUser } from './support/browser.ts';
import { isComplete, smallMovie, waitForRecord } from './support/downloads.ts';
import { createSellablePlan, uniqueStamp, uploadMovie, type SeededMovie } from './support/seed.ts';
import { codeFromSimulator, textFromSimulator } from './support/sms.ts';

/**
 * A Luganda-speaking subscriber, start to end (issue 22/22, decisions 0257, 0258): on a phone whose browser speaks
 * Luganda they register and confirm their number by an SMS in Luganda, pay with MTN Mobile Money (a number of the
 * wrong network refused in Luganda first), get the receipt by SMS in Luganda, find the film in the library, choose its
 * size, download it and play it; the dashboard, library, size dialog, My Downloads, player and profile are each in
 * Luganda at 360 px with no sideways scroll and axe clean in light and dark.
 */
const luganda = catalogue('lg');
const english = catalogue('en');
const lg = (id: string, values?: Record<string, string>) => filled(luganda, id, values);
const lgPattern = (id: string) => pattern(luganda, id);

let browser: Browser;
let film: SeededMovie;
let planName: string;

beforeAll(async () => {
  browser = await launchBrowser();
  planName = `Omwezi ${uniqueStamp()}`;
  const plan = await createSellablePlan({
    plan_name: planName,
    price_ugx: 15000,
    description: '',
    features: ['HD downloads'],
    global_expiry_date: '2027-12-31T23:59',
  });
  film = await uploadMovie(smallMovie('Ekyama'), {
    title: `Ekyama ${uniqueStamp()}`,
    category: 'Kinayuganda',
    vj: 'VJ Junior',
    planIds: [plan.id],
  });
});

afterAll(async () => {
  await browser?.close();
});

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** This screen, in both themes: nothing wider than the phone, no blocking axe finding. */
async function holdsAt360(page: Page, screen: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await wearTheme(page, colorScheme);
    expect(await pageWidth(page), `${screen}, ${colorScheme}`).toBeLessThanOrEqual(360);
    await expectAccessible(page, `${screen} in Luganda, ${colorScheme}`);
  }
  await wearTheme(page, 'light');
}

describe('a Luganda subscriber, start to end', () => {
  it('registers, pays, downloads and watches in Luganda, SMS included', async () => {
    const user = newUser();
    const context: BrowserContext = await browser.newContext({
      baseURL: baseURL(),
      locale: 'lg',
      viewport: { width: 360, height: 740 },
    });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));

      // Register, and confirm the number with the code the SMS brings — in Luganda.
      await page.goto('/register');
      await page.getByLabel(lg('register.fullName')).fill(user.fullName);
      await page.getByLabel(lg('form.email'), { exact: true }).fill(user.email);
      await page.getByLabel(lg('register.phone')).fill(user.phone);
      await page.getByLabel(lg('form.password'), { exact: true }).fill(user.password);
      await page.getByRole('button', { name: lg('register.submit') }).click();
      await page.getByRole('button', { name: lg('profile.confirm.textMe') }).click();
      const phone = `256${user.phone.slice(1)}`;
      const code = await codeFromSimulator(phone);
      const codeText = await textFromSimulator(phone, { accept: (text) => text.includes(code) });
      expect(codeText).toBe(lg('sms.phoneCode', { code, minutes: '10' }));
      await page.getByLabel(lg('profile.phone.code'), { exact: true }).fill(code);
      await page.getByRole('button', { name: lg('profile.confirm.submit'), exact: true }).click();
      await page.waitForURL('**/subscription');

      // The plan, the order, the payment: a number of the other network is refused in Luganda before any charge.
      const card = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: planName, exact: true }) })
        .first();
      const subscribe = card.getByRole('button', { name: lg('payments.offer.subscribe') });
      await subscribe.waitFor();
      await holdsAt360(page, 'plans');
      await subscribe.click();
      await page.getByRole('heading', { name: lg('payments.order.title') }).waitFor();
      await holdsAt360(page, 'order summary');
      await page.getByRole('button', { name: lg('payments.order.proceed') }).click();
      await page.waitForURL('**/payment-flow');
      await page.getByRole('button', { name: /MTN Mobile Money/ }).click();
      await page.getByLabel(lg('payments.phone.label')).fill('0752 123 456');
      const pay = page.getByRole('button', { name: lg('payments.phone.pay', { amount: 'UGX 15,000' }) });
      await pay.click();
      await page.getByText(lgPattern('payments.phone.problem.wrongNetwork')).waitFor();
      await holdsAt360(page, 'payment step with its error');
      await page.getByLabel(lg('payments.phone.label')).fill('0772000005');
      await pay.click();
      await page.getByRole('heading', { name: lg('payments.common.paymentSuccessful') }).waitFor({ timeout: 20_000 });
      await page.waitForURL('**/dashboard', { timeout: 10_000 });
      await page.getByRole('heading', { name: lg('dashboard.subscription.title') }).waitFor();
      await holdsAt360(page, 'dashboard');

      // The receipt SMS, in Luganda, to the number the person proved.
      const receipt = await textFromSimulator(phone, { accept: (text) => text.includes('Ref ') });
      expect(receipt).toMatch(lgPattern('sms.receipt'));
      expect(receipt).toContain('UGX 15,000');
      expect(receipt).not.toMatch(new RegExp(english['sms.receipt']!.split(' ')[2]!));

      // The library, the film, the size dialog.
      await page.goto('/movies');
      await page.getByRole('heading', { name: lg('catalog.section.kinayuganda') }).waitFor();
      await holdsAt360(page, 'library');
      await page.goto(`/movies/${film.id}`);
      await page.getByRole('heading', { name: film.title }).waitFor();
      await holdsAt360(page, 'film page');
      await page.getByRole('button', { name: lg('downloads.button.download') }).click();
      const sizeNames = ['small', 'standard', 'hd', 'original'].map((size) => lg(`downloads.sizeName.${size}`));
      const confirm = page.getByRole('dialog').getByRole('button', {
        name: new RegExp(`^${lg('downloads.size.confirm').replace('{size}', `(${sizeNames.join('|')})`)}$`),
      });
      await confirm.waitFor();
      await holdsAt360(page, 'size dialog');
      await confirm.click();

      // My Downloads, the film arriving whole, then the player.
      await waitForRecord(page, film.id, isComplete);
      await page.goto('/downloads');
      await page.getByRole('heading', { name: lg('downloads.page.title') }).waitFor();
      await page
        .getByRole('link', { name: lg('downloads.action.play') })
        .first()
        .waitFor();
      await holdsAt360(page, 'My Downloads');
      await page.goto(`/downloads/${film.id}/play`);
      await page.locator('video').waitFor();
      await page.getByRole('button', { name: lg('watching.controls.play'), exact: true }).click();
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3);
      await holdsAt360(page, 'player');

      // The profile, its plan tab.
      await page.goto('/profile');
      await page.getByRole('tab', { name: lg('profile.tab.subscription') }).click();
      await page.getByText(planName).first().waitFor();
      await holdsAt360(page, 'profile');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('lg');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
