/**
 * Screenshots of the screens issue 18/22 (licences on phones) added, light and dark: the Play screen's refusals in
 * words (saved on another phone, with Get it on this phone and what it costs; taken down; connect once), My Downloads
 * on a phone signed out by the single-device rule, the Keep a copy dialog (390×844), and the admin Movies tab's
 * "Encrypting films for phones" progress (1280×800). The built app with ffmpeg, so stored films are encrypted and
 * phones get real licences; seeded through the API and a real browser, as the e2e tests do (e2e/support).
 *
 * Build first (`npx pnpm@10 build`), then from the repository root:
 *
 *   npx pnpm@10 screenshots:licences -- docs/screenshots/issue-32
 *
 * Each shot is the viewport at a device scale of 1. Beside the PNGs, `summary.json` gives each one's viewport and
 * `document.documentElement.scrollWidth` (wider than the viewport = sideways scroll).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall } from '../e2e/support/api.ts';
import { launchBrowser, login, useServer } from '../e2e/support/browser.ts';
import { isComplete, smallMovie, tapDownload, waitForRecord } from '../e2e/support/downloads.ts';
import {
  adminSession,
  createPlan,
  posterPng,
  registerUser,
  signInContext,
  subscribeUser,
  uploadMovie,
  type SeededUser,
} from '../e2e/support/seed.ts';
import { startBuiltServer, type BuiltServer } from '../e2e/support/server.ts';
import type { AdminMovie } from '../shared/src/schemas/admin-movies.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const THEMES = ['light', 'dark'] as const;
const BAR = 'Signed out on this phone — sign in to download more';

const cwd = process.env.INIT_CWD ?? process.cwd();
const outArg = process.argv.slice(2).find((a) => a !== '--');
if (!outArg) throw new Error('usage: pnpm screenshots:licences -- <outDir>');
const outDir = resolve(cwd, outArg);
mkdirSync(outDir, { recursive: true });
const summary: Record<string, { viewport: string; scrollWidth: number; fits: boolean }> = {};

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(400); // transitions (dialogs fading in)
  await page.screenshot({ path: join(outDir, `${name}.png`), animations: 'disabled' });
  const { width, height } = page.viewportSize()!;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  summary[name] = { viewport: `${width}×${height}`, scrollWidth, fits: scrollWidth <= width };
  console.log(`  ${name}.png${scrollWidth > width ? `  ← scrolls sideways (${scrollWidth} px)` : ''}`);
}

/** Photographs the screen in each theme: `show` brings it back after the theme's reload. */
async function bothThemes(page: Page, name: string, show: () => Promise<void>): Promise<void> {
  for (const theme of THEMES) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    await page.reload();
    await show();
    await shoot(page, `${name}-${theme}-${page.viewportSize()!.width}`);
  }
}

/** A phone (its own browser context) with `user` signed in. */
async function phoneOf(browser: Browser, server: BuiltServer, user: SeededUser) {
  const context = await browser.newContext({ baseURL: server.baseURL, viewport: PHONE, deviceScaleFactor: 1 });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  await login(page, user.email, user.password);
  await page.waitForURL('**/dashboard');
  return { context, page };
}

/** Waits until the movie's sizes are made and every file of it is stored encrypted. */
async function waitEncrypted(movieId: string): Promise<void> {
  for (const deadline = Date.now() + 300_000; Date.now() < deadline;) {
    const { movies } = await apiCall<{ movies: AdminMovie[] }>('/admin/movies', await adminSession());
    const movie = movies.find((m) => m.id === movieId)!;
    const busy = movie.renditions.some((r) => r.state === 'queued' || r.state === 'encoding');
    if (!busy && movie.encryption.encrypted === movie.encryption.files) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${movieId}: not encrypted in 5 min`);
}

async function addMovie(title: string, planId: string, palette: [string, string]) {
  return uploadMovie(smallMovie(title), {
    title,
    category: 'Kinayuganda',
    vj: 'VJ Ice P',
    planIds: [planId],
    thumbnail: posterPng(title, palette),
  });
}

// One data dir for two runs of the server: the second (for the admin's progress bar) sees the first one's library.
const dataDir = mkdtempSync(join(tmpdir(), 'filamu-shots-licences-'));
const adminPassword = `Adm1n-${randomBytes(12).toString('hex')}`;
const ffmpeg = { FFMPEG_PATH: 'ffmpeg', FFPROBE_PATH: 'ffprobe', DATA_DIR: dataDir };
console.log(`screenshots of licences on phones: ${outDir}`);
let server = await startBuiltServer(undefined, ffmpeg, adminPassword);
useServer(server);
let browser: Browser | null = null;
const contexts: BrowserContext[] = [];
try {
  const plan = await createPlan({ plan_name: 'Basic' });
  const kampala = await addMovie('Kampala Express', plan.id, ['#f97316', '#431407']);
  const jungle = await addMovie('Jungle Commando', plan.id, ['#22c55e', '#052e16']);
  await waitEncrypted(kampala.id);
  await waitEncrypted(jungle.id);
  browser = await launchBrowser();

  // --- Phone A: a film downloaded (encrypted, with its licence), and Keep a copy -----------------------------------
  const moved = await registerUser();
  await subscribeUser(moved.id, plan.id);
  const a = await phoneOf(browser, server, moved);
  contexts.push(a.context);
  await tapDownload(a.page, kampala.id);
  const record = await waitForRecord(a.page, kampala.id, isComplete);
  if (!(record as { fileNonce?: string }).fileNonce) throw new Error('the download is not encrypted');
  const item = a.page.getByRole('article', { name: kampala.title });
  await a.page.goto('/downloads');
  await bothThemes(a.page, 'keep-a-copy', async () => {
    await item.getByRole('button', { name: `Keep a copy ${kampala.title}` }).click();
    await a.page.getByRole('dialog', { name: 'Keep a copy?' }).getByText('It opens only in Filamu').waitFor();
  });

  // --- Phone B: the same person signs in (phone A is signed out) and downloads the film again: its licence moves --
  const b = await phoneOf(browser, server, moved);
  contexts.push(b.context);
  await b.page.goto(`/movies/${kampala.id}`);
  await b.page.getByRole('button', { name: 'Download again' }).click();
  await b.page
    .getByRole('dialog', { name: `Download ${kampala.title} again?` })
    .getByRole('button', { name: 'Download again' })
    .click();
  await waitForRecord(b.page, kampala.id, isComplete);

  // Phone A, signed out by the single-device rule, still lists its film under the bar.
  await a.page.goto('/downloads');
  await bothThemes(a.page, 'signed-out-downloads', async () => {
    await a.page.getByRole('complementary', { name: 'Signed out' }).getByText(BAR).waitFor();
    await item.getByText('Downloaded').waitFor();
    // The "You have been signed out" toast says it once; the bar stays.
    await a.page.getByText('You have been signed out').first().waitFor({ state: 'hidden', timeout: 15_000 });
  });

  // Signed in again on A: the film's licence is on B, so the Play screen offers to bring it back for a re-download.
  await login(a.page, moved.email, moved.password);
  await a.page.waitForURL('**/dashboard');
  await a.page.goto(`/downloads/${kampala.id}/play`);
  await bothThemes(a.page, 'play-saved-on-another-phone', async () => {
    await a.page.getByRole('alert').getByText('This film was saved on another phone.').waitFor();
    await a.page.getByText(/^Uses 1 of your \d+ re-downloads this month/).waitFor();
    await a.page.getByRole('button', { name: 'Get it on this phone' }).waitFor();
  });

  // --- Phone C: a film taken down by Filamu after it was downloaded -------------------------------------------------
  const viewer = await registerUser();
  await subscribeUser(viewer.id, plan.id);
  const c = await phoneOf(browser, server, viewer);
  contexts.push(c.context);
  await tapDownload(c.page, jungle.id);
  await waitForRecord(c.page, jungle.id, isComplete);
  await apiCall(`/admin/movies/${jungle.id}/take-down`, {
    method: 'POST',
    ...(await adminSession()),
    body: { reason: 'The rights holder asked for it' },
  });
  await c.page.goto(`/downloads/${jungle.id}/play`);
  await bothThemes(c.page, 'play-taken-down', async () => {
    // The online check at start marks the licence; the screen may have read it just before.
    for (let i = 0; i < 5; i++) {
      const taken = c.page.getByText('This film was taken down by Filamu and can no longer be played.', {
        exact: false,
      });
      if (
        await taken.waitFor({ timeout: 3_000 }).then(
          () => true,
          () => false,
        )
      )
        return;
      await c.page.reload();
    }
    throw new Error('the Play screen did not say the film was taken down');
  });

  // --- Phone D: offline, a film whose licence did not reach the phone ----------------------------------------------
  // The licence comes with the download; one that failed to be kept is asked for at Play. Here it is removed from the
  // phone's licence store to stand for that, and the phone goes offline.
  const offline = await registerUser();
  await subscribeUser(offline.id, plan.id);
  const d = await phoneOf(browser, server, offline);
  contexts.push(d.context);
  await tapDownload(d.page, kampala.id);
  await waitForRecord(d.page, kampala.id, isComplete);
  await d.page.goto('/downloads');
  await d.page.evaluate(async (movieId) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('filamu-licences');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const store = db.transaction('licences', 'readwrite').objectStore('licences');
    const all = await new Promise<{ key: string; movieId: string }[]>((resolve) => {
      const request = store.getAll();
      request.onsuccess = () => resolve(request.result as { key: string; movieId: string }[]);
    });
    for (const entry of all) if (entry.movieId === movieId) store.delete(entry.key);
    await new Promise((resolve) => (store.transaction.oncomplete = resolve));
    db.close();
  }, kampala.id);
  await d.context.setOffline(true);
  await d.page.goto(`/downloads/${kampala.id}/play`);
  await bothThemes(d.page, 'play-connect-once', async () => {
    await d.page.getByRole('alert').getByText('Connect once to play this film').waitFor();
  });
  await d.context.setOffline(false);
  for (const context of contexts.splice(0)) await context.close();

  // --- The admin: a web process with ffmpeg whose worker has not run yet, right after an upload --------------------
  // The server again on the same data dir with TRANSCODE_CONCURRENCY=0 (jobs are sent, none run here), so the new
  // upload's original stays plain beside the encrypted library while it is photographed.
  useServer(null);
  await server.stop();
  server = await startBuiltServer(undefined, { ...ffmpeg, TRANSCODE_CONCURRENCY: '0' }, adminPassword);
  useServer(server);
  await addMovie('Lake Victoria Sunrise', plan.id, ['#0ea5e9', '#082f49']);
  for (const theme of THEMES) {
    const admin = await browser.newContext({ baseURL: server.baseURL, viewport: DESKTOP, deviceScaleFactor: 1 });
    await signInContext(admin, await adminSession(), theme);
    const tab = await admin.newPage();
    await tab.goto('/admin/movies');
    await tab.getByTestId('encryption-progress').waitFor();
    await shoot(tab, `admin-movies-encrypting-${theme}-1280`);
    await admin.close();
  }
} finally {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  useServer(null);
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
}
