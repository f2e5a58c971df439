/**
 * The before/after set for issue 13/14 §4, §7, §8 (true claims, money on the Overview, the console at 390 px, the
 * polish list): `claims-*.png` at 390×844 from a built checkout, seeded through the API. Tolerant like
 * scripts/screenshots.ts: a step that fails (labels differ between versions) is logged and the screen is
 * photographed as it is.
 *
 *   npx pnpm@10 build
 *   pnpm --filter ./api exec node --import tsx ../scripts/screenshots-claims.ts <outDir> [<checkout root>]
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, newUser, register, useServer } from '../e2e/support/browser.ts';
import { smallMovie } from '../e2e/support/downloads.ts';
import {
  adminSession,
  createAgent,
  createPlan,
  posterPng,
  registerUser,
  signInContext,
  subscribeUser,
  uploadMovie,
  type ApiSession,
} from '../e2e/support/seed.ts';
import { startBuiltServer } from '../e2e/support/server.ts';

const PHONE = { width: 390, height: 844 };
const cwd = process.env.INIT_CWD ?? process.cwd();
const [outArg, rootArg] = process.argv.slice(2).filter((a) => a !== '--');
if (!outArg) throw new Error('usage: screenshots-claims.ts <outDir> [<checkout root>]');
const outDir = resolve(cwd, outArg);
mkdirSync(outDir, { recursive: true });

async function step(label: string, action: () => Promise<unknown>): Promise<boolean> {
  try {
    await Promise.race([
      action(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('gave up after 30 s')), 30_000)),
    ]);
    return true;
  } catch (error) {
    console.warn(`  ! ${label}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
    return false;
  }
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await page
    .waitForFunction(() => !document.querySelector('main .animate-spin, main .animate-pulse'), undefined, {
      timeout: 8_000,
    })
    .catch(() => undefined);
  await page.waitForTimeout(400);
}

/** The viewport as the person sees it (a phone screen), or one element of it. */
async function shoot(page: Page, name: string, target?: Locator): Promise<void> {
  await step(`${name}: screenshot`, async () => {
    const path = join(outDir, `${name}.png`);
    if (target) await target.screenshot({ path, animations: 'disabled' });
    else await page.screenshot({ path, animations: 'disabled' });
  });
  console.log(`  ${name}: ${new URL(page.url()).pathname}`);
}

async function visit(page: Page, path: string, name: string): Promise<void> {
  await step(`${name}: open ${path}`, () => page.goto(path));
  await settle(page);
  await shoot(page, name);
}

async function as(
  browser: Browser,
  baseURL: string,
  account: { session: ApiSession; kind: 'user' | 'agent' } | null,
  body: (page: Page, context: BrowserContext) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ baseURL, viewport: PHONE, deviceScaleFactor: 1 });
  context.setDefaultTimeout(8_000);
  try {
    if (account) await signInContext(context, account.session, 'light', account.kind);
    await body(await context.newPage(), context);
  } catch (error) {
    console.warn(`  ! ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await context.close().catch(() => undefined);
  }
}

const server = await startBuiltServer(rootArg ? resolve(cwd, rootArg) : undefined);
useServer(server);
let browser: Browser | null = null;
try {
  const year = new Date().getFullYear() + 1;
  const admin = await adminSession();
  const basic = await createPlan({
    plan_name: 'Basic',
    price_ugx: 15000,
    features: ['Every Kinayuganda movie', 'Selected English movies', 'Download on one phone'],
    global_expiry_date: `${year}-12-31T23:59`,
  });
  await uploadMovie(smallMovie('Kampala Nights'), {
    title: 'Kampala Nights',
    category: 'Kinayuganda',
    vj: 'VJ Ice P',
    description: 'A short demo clip.',
    planIds: [basic.id],
    thumbnail: posterPng('Kampala Nights', ['#f97316', '#431407']),
  });
  const subscriber = await registerUser();
  await subscribeUser(subscriber.id, basic.id);
  const newcomer = await registerUser();
  const agent = await createAgent();
  browser = await launchBrowser();
  const b = browser;
  const url = server.baseURL;

  await as(b, url, null, async (page) => {
    await step('landing', () => page.goto('/'));
    await settle(page);
    const strip = page.locator('section[aria-label="Filamu in numbers"], section[aria-label="How Filamu works"]');
    await shoot(page, 'claims-landing-figures-390', strip);
    await step('register', () => register(page, newUser()));
    await step('toast', () => page.getByTestId('toast').first().waitFor());
    await page.waitForTimeout(300);
    await shoot(page, 'claims-toast-after-register-390');
  });

  await as(b, url, { session: newcomer, kind: 'user' }, async (page) => {
    await visit(page, '/dashboard', 'claims-unpaid-dashboard-390');
    await step('profile', () => page.goto('/profile'));
    await step('subscription tab', () => page.getByRole('tab', { name: 'Subscription', exact: true }).click());
    await settle(page);
    await shoot(page, 'claims-unpaid-profile-subscription-390');
  });

  await as(b, url, { session: subscriber, kind: 'user' }, async (page) => {
    await visit(page, '/dashboard', 'claims-subscriber-dashboard-390');
    await step('dashboard full', () =>
      page.screenshot({ path: join(outDir, 'claims-subscriber-dashboard-full-390.png'), fullPage: true }),
    );
    await step('profile', () => page.goto('/profile'));
    await step('subscription tab', () => page.getByRole('tab', { name: 'Subscription', exact: true }).click());
    await settle(page);
    await shoot(
      page,
      'claims-subscriber-profile-benefits-390',
      page.getByRole('tabpanel').locator('.rounded-2xl').first(),
    );
    await step('movies', () => page.goto('/movies'));
    await step('open the movie', () =>
      page
        .getByRole('link', { name: /Kampala Nights/ })
        .first()
        .click(),
    );
    await settle(page);
    await shoot(page, 'claims-movie-detail-vj-390', page.locator('main dl').first());
    await step('download now', () =>
      page
        .getByRole('button', { name: /Download Now/ })
        .first()
        .click(),
    );
    await step('choose a size', () =>
      page
        .getByRole('dialog')
        .getByRole('button', { name: /^Download/ })
        .first()
        .click(),
    );
    await step('downloaded', () =>
      page.getByText('On this phone', { exact: true }).first().waitFor({ timeout: 25_000 }),
    );
    await visit(page, '/downloads', 'claims-my-downloads-390');
    await step('log out', () =>
      page
        .getByRole('button', { name: /^Log ?out$/ })
        .first()
        .click(),
    );
    await page.waitForTimeout(600);
    await shoot(page, 'claims-logout-390');
  });

  await as(b, url, { session: agent, kind: 'agent' }, async (page) => {
    await visit(page, '/profile', 'claims-agent-profile-390');
    await step('agent profile full', () =>
      page.screenshot({ path: join(outDir, 'claims-agent-profile-full-390.png'), fullPage: true }),
    );
  });

  await as(b, url, { session: admin, kind: 'user' }, async (page) => {
    await visit(page, '/admin', 'claims-admin-overview-390');
    await visit(page, '/admin/subscribers', 'claims-admin-subscribers-390');
    await visit(page, '/admin/agents', 'claims-admin-agents-390');
    await step('movies', () => page.goto('/admin/movies'));
    await settle(page);
    await step('upload tab', () => page.getByRole('tab', { name: 'Upload English' }).click());
    await step('scroll to Upload Movie', () =>
      page.getByRole('button', { name: 'Upload Movie' }).scrollIntoViewIfNeeded(),
    );
    await shoot(page, 'claims-admin-upload-untouched-390');
    await step('plans', () => page.goto('/admin/plans'));
    await settle(page);
    await step('edit plan', () => page.getByRole('button', { name: 'Edit Basic' }).click());
    await page.waitForTimeout(1200);
    await shoot(page, 'claims-admin-plan-edit-390');
  });
} finally {
  await browser?.close().catch(() => undefined);
  await server.stop();
}
