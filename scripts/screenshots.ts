// A tool, not production code: one seeded server photographed screen by screen.
/**
 * Reproducible screenshots of the PWA for UI reviews (issue 9: overflow on phones, headers, focus, payment
 * screens, profile): the built app on a fresh data dir, seeded through the API, photographed in headless Chromium
 * (/usr/bin/chromium) at 390×844 and, for a few screens, 1280×800. Writes `<outDir>/<name>.png` and
 * `<outDir>/summary.json` (name → { path, viewport, scrollWidth, title, notes? }).
 *
 * Build first (`npx pnpm@10 build`), then, from the repository root:
 *
 *   npx pnpm@10 screenshots -- docs/screenshots/issue-9/after
 *
 * To photograph another checkout's build (e.g. an older commit in a worktree, built there with
 * `npx --yes pnpm@10 install && npx pnpm@10 build`), run this script from here and point it at that checkout:
 *
 *   npx pnpm@10 screenshots -- docs/screenshots/issue-9/before --root /work/wt-before
 *   (or FILAMU_ROOT=/work/wt-before npx pnpm@10 screenshots -- <outDir>)
 *
 * Relative paths are taken from the directory the command was run in. Every step is tolerant: an element that is
 * not there within ~8 s (labels differ between versions) is logged, the screen is photographed as it is, and the
 * script goes on; the failed steps are listed at the end and in the next screenshot's `notes`. The server is
 * stopped at the end, also on error.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall } from '../e2e/support/api.ts';
import { launchBrowser, useServer } from '../e2e/support/browser.ts';
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

const USAGE = 'usage: pnpm screenshots -- <outDir> [--root <checkout>]   (or FILAMU_ROOT=<checkout>)';
/** How long a step waits for an element before giving up on it. */
const STEP_TIMEOUT_MS = 8_000;
/** A hard limit per step, whatever it awaits, so that nothing can hang the script. */
const STEP_HARD_LIMIT_MS = 45_000;

interface Viewport {
  width: number;
  height: number;
}
const PHONE: Viewport = { width: 390, height: 844 };
const DESKTOP: Viewport = { width: 1280, height: 800 };

interface Shot {
  path: string;
  viewport: Viewport;
  scrollWidth: number | null;
  title: string | null;
  notes?: string[];
}

function parseArgs(argv: string[]): { outDir: string; root: string | undefined } {
  // Paths are the caller's: pnpm runs this from api/ but keeps the directory it was started in as INIT_CWD.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  let outDir: string | undefined;
  let root = process.env.FILAMU_ROOT || undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') continue;
    if (arg === '--root') root = argv[++i];
    else if (arg.startsWith('--root=')) root = arg.slice('--root='.length);
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}\n${USAGE}`);
    else if (outDir === undefined) outDir = arg;
    else throw new Error(`unexpected argument ${arg}\n${USAGE}`);
  }
  if (!outDir) throw new Error(USAGE);
  return { outDir: resolve(cwd, outDir), root: root ? resolve(cwd, root) : undefined };
}

const { outDir, root } = parseArgs(process.argv.slice(2));
mkdirSync(outDir, { recursive: true });

const summary: Record<string, Shot> = {};
const failures: string[] = [];
/** Failed steps since the last screenshot, attached to the next one. */
let pending: string[] = [];

function withHardLimit<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up after ${STEP_HARD_LIMIT_MS} ms`)), STEP_HARD_LIMIT_MS);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** Runs one step of a flow; on failure logs it and returns false instead of throwing. */
async function step(label: string, action: () => Promise<unknown>): Promise<boolean> {
  try {
    await withHardLimit(action());
    return true;
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    const message = `${label}: ${reason}`;
    console.warn(`  ! ${message}`);
    failures.push(message);
    pending.push(message);
    return false;
  }
}

/** Waits (quietly, each wait bounded) until the screen shows a heading and has stopped loading. */
async function settle(page: Page, { spinners = true } = {}): Promise<void> {
  await page
    .locator('h1')
    .first()
    .waitFor({ timeout: STEP_TIMEOUT_MS })
    .catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  if (spinners) {
    await page
      .waitForFunction(() => !document.querySelector('.animate-spin, .animate-pulse'), undefined, {
        timeout: STEP_TIMEOUT_MS,
      })
      .catch(() => undefined);
  }
  await page.evaluate(() => document.fonts.ready.then(() => undefined)).catch(() => undefined);
  // Let transitions (tabs, toasts sliding in) finish.
  await page.waitForTimeout(400);
}

/** A full-page PNG of what is on screen now, and its width and title in the summary. Never throws. */
async function shoot(page: Page, name: string, options: { spinners?: boolean } = {}): Promise<void> {
  const file = `${name}.png`;
  const viewport = page.viewportSize() ?? PHONE;
  let scrollWidth: number | null = null;
  let title: string | null = null;
  try {
    await withHardLimit(
      (async () => {
        await settle(page, options);
        scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        title = await page.title();
        await page.screenshot({ path: join(outDir, file), fullPage: true, animations: 'disabled' });
      })(),
    );
  } catch (error) {
    const message = `${name}: screenshot failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
    console.warn(`  ! ${message}`);
    failures.push(message);
    pending.push(message);
  }
  summary[name] = { path: file, viewport, scrollWidth, title, ...(pending.length ? { notes: pending } : {}) };
  pending = [];
  console.log(`  ${name}: ${new URL(page.url()).pathname}, scrollWidth ${scrollWidth}, "${title}"`);
}

type Account = { session: ApiSession; kind: 'user' | 'agent' } | null;

/** A fresh browser context (own storage) for `account` in `theme`, closed after `body`, whatever happens. */
async function asPerson(
  browser: Browser,
  baseURL: string,
  account: Account,
  options: { theme?: 'light' | 'dark'; viewport?: Viewport },
  body: (page: Page, context: BrowserContext) => Promise<void>,
): Promise<void> {
  const theme = options.theme ?? 'light';
  let context: BrowserContext | null = null;
  try {
    context = await browser.newContext({ baseURL, viewport: options.viewport ?? PHONE, deviceScaleFactor: 1 });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(20_000);
    if (account) await signInContext(context, account.session, theme, account.kind);
    else await context.addInitScript((t) => localStorage.setItem('theme', t), theme);
    const page = await context.newPage();
    await body(page, context);
  } catch (error) {
    const message = `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    console.warn(`  ! ${message}`);
    failures.push(message);
  } finally {
    await context?.close().catch(() => undefined);
  }
}

/** Opens `path` and photographs it. */
async function visit(page: Page, path: string, name: string): Promise<void> {
  await step(`${name}: open ${path}`, () => page.goto(path));
  await shoot(page, name);
}

console.log(`screenshots: ${outDir}${root ? ` (the build in ${root})` : ''}`);
// With ffmpeg, so the clips get their sizes (Small and the Original) as on a real server.
const server = await startBuiltServer(root, { FFMPEG_PATH: 'ffmpeg', FFPROBE_PATH: 'ffprobe' });
useServer(server);
let browser: Browser | null = null;
try {
  // --- Seed through the API, as the admin ---------------------------------------------------------------------------
  const year = new Date().getFullYear() + 1;
  const admin = await adminSession();
  const basic = await createPlan({
    plan_name: 'Basic',
    price_ugx: 15000,
    description: 'Everything you need for movie nights at home.',
    features: ['HD downloads', 'All Kinayuganda movies', 'Support'],
    global_expiry_date: `${year}-12-31T23:59`,
  });
  const premium = await createPlan({
    plan_name: 'Premium',
    price_ugx: 30000,
    description: 'Every movie, Kinayuganda and English.',
    features: ['HD downloads', 'All Kinayuganda movies', 'All English movies', 'Priority support'],
    global_expiry_date: `${year}-12-31T23:59`,
  });
  const planIds = [basic.id, premium.id];
  const movieIds: string[] = [];
  for (const [title, category, vj, palette] of [
    ['Kampala Nights', 'Kinayuganda', 'VJ Junior', ['#f97316', '#431407']],
    ['The Long Road Home', 'English', 'VJ Emmy', ['#0ea5e9', '#082f49']],
  ] as const) {
    const movie = await uploadMovie(smallMovie(title), {
      title,
      category,
      vj,
      description: `${title}: a short demo clip for the screenshots.`,
      planIds,
      thumbnail: posterPng(title, [palette[0], palette[1]]),
    });
    movieIds.push(movie.id);
  }
  // The size choice shows every size: wait (bounded) until the server has made them.
  for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
    const { movies } = await apiCall<{ movies: { renditions: { state: string }[] }[] }>('/admin/movies', admin);
    if (!movies.some((m) => m.renditions.some((r) => r.state === 'queued' || r.state === 'encoding'))) break;
    await new Promise((done) => setTimeout(done, 1000));
  }
  const subscriber = await registerUser();
  await subscribeUser(subscriber.id, basic.id);
  const newcomer = await registerUser();
  const agent = await createAgent();
  const people = {
    subscriber: { session: subscriber, kind: 'user' },
    newcomer: { session: newcomer, kind: 'user' },
    agent: { session: agent, kind: 'agent' },
    admin: { session: admin, kind: 'user' },
  } as const;
  console.log(`seeded: plans Basic (${basic.id}) and Premium, 2 movies, a subscriber, a newcomer, an agent`);

  browser = await launchBrowser();
  const b = browser;
  const url = server.baseURL;

  // --- Guest ------------------------------------------------------------------------------------------------------
  console.log('guest');
  await asPerson(b, url, null, {}, async (page) => {
    await visit(page, '/', 'guest-home-390');
    await visit(page, '/login', 'guest-login-390');
    await step('guest-register-error-390: open /register', () => page.goto('/register'));
    await step('guest-register-error-390: fill Full Name', () => page.getByLabel('Full Name').fill('Second Person'));
    await step('guest-register-error-390: fill Email', () =>
      page.getByLabel('Email', { exact: true }).fill(subscriber.email),
    );
    await step('guest-register-error-390: fill Phone Number', () => page.getByLabel('Phone Number').fill('0771234567'));
    await step('guest-register-error-390: fill Password', () =>
      page.getByLabel('Password', { exact: true }).fill('movie-night-2026'),
    );
    if (
      await step('guest-register-error-390: press Create Account', () =>
        page.getByRole('button', { name: 'Create Account' }).click(),
      )
    ) {
      await step('guest-register-error-390: wait for the error', () =>
        page
          .getByText(/Registration Error|already/i)
          .first()
          .waitFor(),
      );
    }
    // The error may be a toast that goes away: photograph it now, without waiting for the page to settle further.
    await shoot(page, 'guest-register-error-390', { spinners: false });
    await visit(page, '/checkout/success', 'guest-checkout-success-390');
  });
  await asPerson(b, url, null, { viewport: DESKTOP }, async (page) => {
    await visit(page, '/', 'guest-home-1280');
    // Issue 16/22 §16: the public preview of the library with the plans' prices.
    await visit(page, '/browse', 'guest-browse-1280');
  });
  for (const theme of ['light', 'dark'] as const) {
    await asPerson(b, url, null, { theme }, async (page) => {
      // The preview has no script: it follows the phone's own light or dark setting.
      await page.emulateMedia({ colorScheme: theme });
      await visit(page, '/browse', `guest-browse-${theme}-390`);
    });
  }

  // --- A user without a subscription (the payment is last: it subscribes them) -------------------------------------
  console.log('user without a subscription');
  await asPerson(b, url, people.newcomer, {}, async (page) => {
    await visit(page, '/checkout/success', 'newcomer-checkout-success-390');
    await visit(page, '/subscription', 'newcomer-subscription-390');
    await visit(page, `/checkout/${basic.id}`, 'newcomer-checkout-basic-390');

    // Subscribe Now → Proceed to Payment → MTN → phone → Pay.
    await step('newcomer-payment-flow: open /subscription', () => page.goto('/subscription'));
    const subscribe = await step('newcomer-payment-flow: press Subscribe Now (Basic)', () =>
      page
        .getByRole('button', { name: /Subscribe Now/ })
        .first()
        .click(),
    );
    if (subscribe) await step('newcomer-payment-flow: reach /checkout/…', () => page.waitForURL('**/checkout/*'));
    const proceed = await step('newcomer-payment-flow: press Proceed to Payment', () =>
      page.getByRole('button', { name: /Proceed to Payment/ }).click(),
    );
    if (proceed) await step('newcomer-payment-flow: reach /payment-flow', () => page.waitForURL('**/payment-flow'));
    await step('newcomer-payment-flow: choose MTN Mobile Money', () =>
      page.getByRole('button', { name: /MTN Mobile Money/ }).click(),
    );
    await step('newcomer-payment-flow: fill Phone Number', () => page.getByLabel('Phone Number').fill('0772000005'));
    const paid = await step('newcomer-payment-flow: press Pay … Now', () =>
      page.getByRole('button', { name: /^Pay .*Now$/ }).click(),
    );
    if (paid) {
      await step('newcomer-payment-flow: wait for the instructions / processing step', () =>
        page
          .getByText(/complete the payment on your phone|dial \*\d+/i)
          .first()
          .waitFor(),
      );
    }
    // The sandbox pays ~1 s after the charge and the page checks at 5 s: photograph before it moves on.
    await shoot(page, 'newcomer-payment-flow-processing-390', { spinners: false });
  });

  // --- Subscriber ---------------------------------------------------------------------------------------------------
  console.log('subscriber');
  await asPerson(b, url, people.subscriber, {}, async (page) => {
    await visit(page, '/dashboard', 'subscriber-dashboard-390');
    await step('subscriber-profile: open /profile', () => page.goto('/profile'));
    for (const tab of ['Profile', 'Subscription', 'Downloads', 'Security']) {
      const name = `subscriber-profile-${tab.toLowerCase()}-390`;
      await step(`${name}: click the ${tab} tab`, () => page.getByRole('tab', { name: tab, exact: true }).click());
      await shoot(page, name);
    }
    await visit(page, '/movies', 'subscriber-movies-390');
  });
  await asPerson(b, url, people.subscriber, { theme: 'dark' }, async (page) => {
    await visit(page, '/profile', 'subscriber-profile-dark-390');
  });
  // Issue 16/22: the size choice, My Downloads, and the library opened offline from cold, light and dark.
  for (const theme of ['light', 'dark'] as const) {
    await asPerson(b, url, people.subscriber, { theme }, async (page, context) => {
      const name = `subscriber-size-choice-${theme}-390`;
      await step(`${name}: open the movie`, () => page.goto(`/movies/${movieIds[0]}`));
      await step(`${name}: press Download Now`, () => page.getByRole('button', { name: 'Download Now' }).click());
      await step(`${name}: wait for the dialog`, () => page.getByRole('dialog').getByRole('radio').first().waitFor());
      await shoot(page, name);
      await visit(page, '/downloads', `subscriber-downloads-${theme}-390`);
      const offline = `subscriber-movies-offline-${theme}-390`;
      await step(`${offline}: open /movies online`, () => page.goto('/movies'));
      await step(`${offline}: wait for the service worker`, () =>
        page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 15_000 }),
      );
      await page.waitForTimeout(1000);
      await context.setOffline(true);
      const cold = await context.newPage();
      await step(`${offline}: open /movies offline`, () => cold.goto('/movies'));
      await shoot(cold, offline);
      await context.setOffline(false);
    });
  }
  await asPerson(b, url, people.subscriber, { viewport: DESKTOP }, async (page) => {
    await visit(page, '/dashboard', 'subscriber-dashboard-1280');
  });

  // --- Agent --------------------------------------------------------------------------------------------------------
  console.log('agent');
  await asPerson(b, url, people.agent, {}, async (page) => {
    await visit(page, '/dashboard', 'agent-dashboard-390');
    await visit(page, '/profile', 'agent-profile-390');
    await visit(page, '/subscription', 'agent-subscription-390');
  });

  // --- Admin --------------------------------------------------------------------------------------------------------
  console.log('admin');
  await asPerson(b, url, people.admin, {}, async (page) => {
    await visit(page, '/admin', 'admin-admin-390');
    await visit(page, '/dashboard', 'admin-dashboard-390');
  });
  await asPerson(b, url, people.admin, { viewport: DESKTOP }, async (page) => {
    await visit(page, '/admin', 'admin-admin-1280');
    await visit(page, '/dashboard', 'admin-dashboard-1280');
    // Issue 16/22: payments, messages, plans and the upload forms in the console.
    for (const tab of ['payments', 'messages', 'plans', 'movies'])
      await visit(page, `/admin/${tab}`, `admin-${tab}-1280`);
  });
  await asPerson(b, url, people.admin, { viewport: DESKTOP, theme: 'dark' }, async (page) => {
    await visit(page, '/admin/messages', 'admin-messages-dark-1280');
  });
  // Issue 16/22 §12: the support actions with their context, and the person's history.
  for (const theme of ['light', 'dark'] as const) {
    await asPerson(b, url, people.admin, { viewport: DESKTOP, theme }, async (page) => {
      const grant = `admin-grant-redownload-${theme}-1280`;
      await step(`${grant}: open the subscribers`, () => page.goto('/admin/subscribers'));
      await step(`${grant}: press Grant`, () =>
        page.getByRole('button', { name: `Grant a re-download to ${subscriber.email}` }).click(),
      );
      await step(`${grant}: wait for the context`, async () => {
        await page.getByRole('dialog').getByLabel('Note for their history (optional)').waitFor();
        await settle(page);
      });
      await shoot(page, grant);
      await step(`${grant}: write a note`, () =>
        page
          .getByRole('dialog')
          .getByLabel('Note for their history (optional)')
          .fill('Phone was reset at the shop; lost Kampala Nights.'),
      );
      await step(`${grant}: confirm`, () =>
        page
          .getByRole('dialog')
          .getByRole('button', { name: /^Grant/ })
          .click(),
      );
      await page.waitForTimeout(1000);
      const history = `admin-subscriber-history-${theme}-1280`;
      await step(`${history}: press History`, () =>
        page.getByRole('button', { name: `History of ${subscriber.email}` }).click(),
      );
      await step(`${history}: wait for the note`, () =>
        page
          .getByRole('dialog')
          .getByText(/lost Kampala Nights/)
          .first()
          .waitFor(),
      );
      await shoot(page, history);
    });
  }
} catch (error) {
  failures.push(`aborted: ${error instanceof Error ? error.message : String(error)}`);
  console.error('screenshots: aborted:', error);
  process.exitCode = 1;
} finally {
  writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  await browser?.close().catch(() => undefined);
  await server.stop();
}

console.log(`screenshots: ${Object.keys(summary).length} in ${outDir} (summary.json beside them)`);
if (failures.length) {
  console.log(`screenshots: ${failures.length} step(s) could not be done:`);
  for (const failure of failures) console.log(`  - ${failure}`);
}
