/**
 * Screenshots of the screens issue 10/14 (sizes and data prices) added, and of password recovery, at 390×844 and
 * 1280×800, light and dark: the size dialog, My Downloads with "Used … of data", the download settings, the admin
 * Movies tab with renditions being made, the Overview's data price form, /forgot-password and the code step.
 * The built app with ffmpeg on a fresh data dir, seeded through the API (e2e/support), headless Chromium.
 *
 * Build first (`npx pnpm@10 build`), then from the repository root:
 *
 *   npx pnpm@10 screenshots:sizes -- docs/screenshots/issue-19
 *
 * Each shot is the viewport (not the full page) at a device scale of 1, so the PNGs stay small enough to commit.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { hexToRgb } from '../api/demo/media/index.ts';
import { ladderSourceMovie } from '../api/demo/media/ladder-source.ts';
import { makeClip } from '../api/src/features/transcode/clips.testing.ts';
import { apiCall } from '../e2e/support/api.ts';
import { launchBrowser, login, useServer } from '../e2e/support/browser.ts';
import { isComplete, waitForRecord } from '../e2e/support/downloads.ts';
import { FaultProxy } from '../e2e/support/fault-proxy.ts';
import {
  adminSession,
  createPlan,
  posterPng,
  registerUser,
  signInContext,
  subscribeUser,
  uploadMovie,
} from '../e2e/support/seed.ts';
import { startBuiltServer } from '../e2e/support/server.ts';
import type { AdminMovie } from '../shared/src/schemas/admin-movies.ts';

const VIEWPORTS = { 390: { width: 390, height: 844 }, 1280: { width: 1280, height: 800 } } as const;
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

const cwd = process.env.INIT_CWD ?? process.cwd();
const outArg = process.argv.slice(2).find((a) => a !== '--');
if (!outArg) throw new Error('usage: pnpm screenshots:sizes -- <outDir>');
const outDir = resolve(cwd, outArg);
mkdirSync(outDir, { recursive: true });
const clips = mkdtempSync(join(tmpdir(), 'filamu-shots-'));

async function shoot(target: Page | Locator, name: string): Promise<void> {
  const page = 'page' in target ? target.page() : target;
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(300); // transitions (dialogs fading in)
  await target.screenshot({ path: join(outDir, `${name}.png`), animations: 'disabled' });
  console.log(`  ${name}.png`);
}

/** Sets the theme the app reads at start-up, and reloads. */
async function useTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate((t) => localStorage.setItem('theme', t), theme);
  await page.reload();
}

async function waitForSizes(title: string): Promise<AdminMovie> {
  for (const deadline = Date.now() + 300_000; Date.now() < deadline;) {
    const { movies } = await apiCall<{ movies: AdminMovie[] }>('/admin/movies', await adminSession());
    const movie = movies.find((m) => m.title === title)!;
    if (!movie.renditions.some((r) => r.state === 'queued' || r.state === 'encoding')) return movie;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${title}: sizes not made in 5 min`);
}

console.log(`screenshots of sizes and recovery: ${outDir}`);
const server = await startBuiltServer(undefined, { FFMPEG_PATH: 'ffmpeg', FFPROBE_PATH: 'ffprobe' });
useServer(server);
let browser: Browser | null = null;
try {
  const plan = await createPlan({
    plan_name: 'Basic',
    global_expiry_date: `${new Date().getFullYear() + 1}-12-31T23:59`,
  });
  // One movie for the dialog, another downloaded in Small (a downloaded movie's page offers Play, not Download Now).
  const title = 'Kampala Express';
  const kept = 'Jungle Commando';
  for (const [name, palette] of [
    [title, ['#f97316', '#431407']],
    [kept, ['#22c55e', '#052e16']],
  ] as const) {
    await uploadMovie(readFileSync(makeClip(clips, `${name}.mp4`, { width: 1280, height: 720, seconds: 6 })), {
      title: name,
      category: 'Kinayuganda',
      vj: 'VJ Ice P',
      planIds: [plan.id],
      thumbnail: posterPng(name, [...palette]),
    });
  }
  const movie = await waitForSizes(title);
  const downloadedMovie = await waitForSizes(kept);
  browser = await launchBrowser();
  // The Small download goes through drops and a range-ignoring resume, so My Downloads has re-fetches to show.
  const proxy = new FaultProxy({ upstream: server.baseURL, match: (path) => path.startsWith('/files/renditions/') });
  const origin = await proxy.listen();
  proxy.faults.push({ dropAfter: 60 * 1024 }, { ignoreRange: true, dropAfter: 150 * 1024 });

  // --- The subscriber: size dialog, a Small download, My Downloads and its settings -------------------------------
  const user = await registerUser();
  await subscribeUser(user.id, plan.id);
  const context = await browser.newContext({ baseURL: origin, viewport: VIEWPORTS[390], deviceScaleFactor: 1 });
  const page = await context.newPage();
  await login(page, user.email, user.password);
  await page.waitForURL('**/dashboard');
  context.setDefaultTimeout(60_000);
  // The dialog first: once a download is done the next movie may be locked until it is watched (the plan's rules).
  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    for (const theme of THEMES) {
      await page.goto(`/movies/${movie.id}`);
      await useTheme(page, theme);
      await page.getByRole('button', { name: 'Download Now' }).click();
      const dialog = page.getByRole('dialog', { name: `Download ${title}` });
      await dialog.getByRole('button', { name: 'Cancel' }).waitFor();
      await dialog.getByRole('radio', { name: /^Small · / }).check();
      await shoot(page, `size-dialog-${theme}-${width}`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    }
  }
  await page.goto(`/movies/${downloadedMovie.id}`);
  await page.getByRole('button', { name: 'Download Now' }).click();
  const choice = page.getByRole('dialog');
  await choice.getByRole('radio', { name: /^Small · / }).check();
  await choice.getByRole('button', { name: 'Download Small' }).click();
  await waitForRecord(page, downloadedMovie.id, isComplete);
  await proxy.close();
  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    for (const theme of THEMES) {
      await page.goto('/downloads');
      await useTheme(page, theme);
      await page.getByTestId('data-used').waitFor();
      await shoot(page, `my-downloads-${theme}-${width}`);
      // The settings card on its own: on a phone it is below the fold.
      const settings = page.locator('div', { has: page.getByRole('heading', { name: 'Download settings' }) }).last();
      await settings.getByLabel('My bundle costs UGX … per GB').waitFor();
      await shoot(settings, `download-settings-${theme}-${width}`);
    }
  }
  await context.close();

  // --- The admin: renditions being made on the Movies tab, and the data price on the Overview ----------------------
  // A second, longer upload is still queued/encoding while the first shows its sizes.
  const next = 'Lake Victoria Sunrise';
  const lake = ladderSourceMovie({
    title: next,
    subtitle: 'English',
    palette: [hexToRgb('#0ea5e9'), hexToRgb('#082f49')],
    seconds: 40,
  });
  if (!lake) throw new Error('ffmpeg could not make the second clip');
  await uploadMovie(lake, {
    title: next,
    category: 'English',
    vj: 'Filamu Originals',
    planIds: [plan.id],
    thumbnail: posterPng(next, ['#0ea5e9', '#082f49']),
  });
  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      const admin = await browser.newContext({ baseURL: server.baseURL, viewport, deviceScaleFactor: 1 });
      await signInContext(admin, await adminSession(), theme);
      const tab = await admin.newPage();
      await tab.goto('/admin/movies');
      await tab.getByRole('list', { name: `Sizes of ${title}` }).waitFor();
      await tab.getByRole('list', { name: `Sizes of ${next}` }).waitFor();
      const table = tab.getByRole('table').first();
      await table.scrollIntoViewIfNeeded();
      await shoot(tab, `admin-movies-renditions-${theme}-${width}`);
      await tab.goto('/admin');
      const price = tab.getByRole('textbox', { name: 'Price of 1 GB of data (UGX)' });
      await price.waitFor();
      await price.scrollIntoViewIfNeeded();
      await shoot(tab, `admin-overview-data-price-${theme}-${width}`);
      await admin.close();
    }
  }

  // --- Password recovery: /forgot-password and the code step --------------------------------------------------------
  const person = await registerUser();
  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    for (const theme of THEMES) {
      const guest = await browser.newContext({ baseURL: server.baseURL, viewport, deviceScaleFactor: 1 });
      await guest.addInitScript((t) => localStorage.setItem('theme', t), theme);
      const p = await guest.newPage();
      await p.goto('/forgot-password');
      await p.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      await shoot(p, `forgot-password-${theme}-${width}`);
      await p.getByLabel('Phone number or email').fill(person.email);
      await p.getByRole('button', { name: 'Send me a code' }).click();
      await p.getByRole('heading', { name: 'Enter your code' }).waitFor();
      await shoot(p, `forgot-password-code-${theme}-${width}`);
      await guest.close();
    }
  }
} finally {
  await browser?.close();
  useServer(null);
  await server.stop();
  rmSync(clips, { recursive: true, force: true });
}
