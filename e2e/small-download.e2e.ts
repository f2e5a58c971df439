import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../api/src/features/transcode/clips.testing.ts';
import { formatBytes } from '../shared/src/format.ts';
import type { AdminMovie } from '../shared/src/schemas/admin-movies.ts';
import { DATA_COST_FLOOR_UGX, RENDITION_ADMIN_LABELS } from '../shared/src/schemas/renditions.ts';
import { apiCall } from './support/api.ts';
import { browserSession, isComplete, opfsSha256, sha256, subscriberPage, waitForRecord } from './support/downloads.ts';
import { type FilmServer, startFilmServer } from './support/encrypted-films.ts';
import type { FaultProxy } from './support/fault-proxy.ts';
import {
  adminSession,
  createPlan,
  registerUser,
  signInContext,
  subscribeUser,
  type SeededPlan,
} from './support/seed.ts';
import type { BuiltServer } from './support/server.ts';

/**
 * Issue 10/14 end to end in Chromium, on a server with real ffmpeg: the admin uploads a clip in the console and
 * watches its sizes being made; a subscriber picks Small with its size and UGX price in front of them, downloads it
 * through a proxy that drops the connection (and a reload mid-way), plays it offline, and My Downloads says what it
 * used. The clip is 5 s of 720p noise, so every rung of the ladder is made and Small has real bytes to cut.
 */

const KiB = 1024;

let films: FilmServer;
let server: BuiltServer;
let browser: Browser;
let proxy: FaultProxy;
let origin: string;
let plan: SeededPlan;
let clips: string;

beforeAll(async () => {
  films = await startFilmServer();
  ({ server, browser, proxy, origin } = films);
  plan = await createPlan({ global_expiry_date: '2030-12-31T23:59' });
  clips = mkdtempSync(join(tmpdir(), 'filamu-small-e2e-'));
});

afterAll(async () => {
  await films?.close();
  if (clips) rmSync(clips, { recursive: true, force: true });
});

/** Reads the sizes list every 150 ms (the console polls every 3 s) until `done`; returns every line it showed. */
async function watchSizes(list: Locator, done: (lines: string[]) => boolean, timeoutMs: number): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = (
      await list
        .locator('li > p')
        .allInnerTexts()
        .catch(() => [])
    ).map((l) => l.trim());
    for (const line of lines) if (!seen.includes(line)) seen.push(line);
    if (lines.length > 0 && done(lines)) return seen;
    if (Date.now() > deadline) throw new Error(`the sizes did not get there; seen: ${JSON.stringify(seen)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The bytes the server serves for a size, fetched straight from it by another subscriber of the plan. */
async function servedBytes(movieId: string, size: 'small'): Promise<Buffer> {
  const user = await registerUser();
  await subscribeUser(user.id, plan.id);
  const { downloadUrl } = await apiCall<{ downloadUrl: string }>('/users/movies/generate-download-url', {
    method: 'POST',
    token: user.token,
    deviceId: user.deviceId,
    body: { movieId, size },
  });
  const response = await fetch(new URL(downloadUrl, server.baseURL));
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe('A new movie in Small, end to end', () => {
  it('the admin watches its sizes appear; a subscriber picks Small, downloads it through drops, plays it offline', async () => {
    const title = `Small Walk ${Date.now().toString(36)}`;
    const clip = makeClip(clips, 'small-walk.mp4', { width: 1280, height: 720, seconds: 5 });

    // The admin uploads it in the console and stays on the Movies tab while it is encoded.
    const admin = await browser.newContext({ baseURL: server.baseURL, viewport: { width: 1280, height: 900 } });
    await signInContext(admin, await adminSession());
    const tab = await admin.newPage();
    let movie: AdminMovie;
    try {
      await tab.goto('/admin/movies');
      await tab.getByRole('heading', { level: 1, name: 'Movies' }).waitFor();
      await tab.getByRole('tab', { name: 'Upload Kinayuganda' }).click();
      const form = tab.getByRole('tabpanel');
      await form.getByLabel('Movie title').fill(title);
      await form.getByLabel('Movie file').setInputFiles(clip);
      await form.getByLabel('Rating', { exact: true }).selectOption({ label: 'All' });
      await form.getByRole('checkbox', { name: new RegExp(plan.plan_name) }).check();
      const upload = tab.getByRole('button', { name: 'Upload Movie' });
      await upload.click({ timeout: 30_000 }).catch(async (error: unknown) => {
        // Say what the form still wanted, not only that its button stayed disabled.
        const describedBy = await upload.getAttribute('aria-describedby');
        const wanted = describedBy ? await tab.locator(`[id="${describedBy}"]`).innerText() : '';
        throw new Error(`Upload Movie could not be pressed; the form said: ${wanted || '(nothing)'}`, { cause: error });
      });
      await tab.getByText('small-walk.mp4 has been uploaded and attached to 1 plan.').waitFor();

      await tab.getByRole('searchbox', { name: 'Search movies' }).fill(title);
      const sizes = tab.getByRole('list', { name: `Sizes of ${title}` });
      const seen = await watchSizes(sizes, (lines) => lines.every((l) => /: Ready · /.test(l)), 150_000);
      // Something before Ready was on screen (the upload never waits for the encode), then each size with its bytes.
      expect(seen.some((l) => /^(Small \((H\.264|HEVC)\)|Standard|HD): (Queued|Encoding \d+ %)/.test(l))).toBe(true);
      const { movies } = await apiCall<{ movies: AdminMovie[] }>('/admin/movies', await adminSession());
      movie = movies.find((m) => m.title === title)!;
      expect(movie.renditions.map((r) => r.kind)).toEqual(['small', 'small-hevc', 'standard', 'hd']);
      for (const r of movie.renditions) {
        expect(seen).toContain(`${RENDITION_ADMIN_LABELS[r.kind]}: Ready · ${formatBytes(r.sizeBytes!)}`);
      }
    } finally {
      await admin.close();
    }

    const small = movie.sizes.find((s) => s.size === 'small')!;
    const { dataPricePerGbUgx } = await apiCall<{ dataPricePerGbUgx: number }>('/settings/data-price');
    const { context, page } = await subscriberPage(browser, origin, plan.id);
    try {
      // Download Now asks which size; Small says its bytes and what they cost at the operator's price.
      await page.goto(`/movies/${movie.id}`);
      await page.getByRole('button', { name: 'Download Now' }).click();
      const dialog = page.getByRole('dialog', { name: `Download ${title}` });
      // A test clip's Small is far below the estimate's floor: the dialog says so rather than "≈ UGX 100".
      expect((small.bytes / 1e9) * dataPricePerGbUgx).toBeLessThan(DATA_COST_FLOOR_UGX);
      const smallText = `Small · ${formatBytes(small.bytes)} · under\u00a0UGX\u00a0${DATA_COST_FLOOR_UGX} of data`;
      await dialog.getByText(smallText, { exact: true }).waitFor();
      await dialog.getByRole('radio', { name: /^Small · / }).check();

      // The first connection drops; the second is slow, and the page is reloaded in the middle of it; after the
      // reload a resume is answered with the whole file (a range-ignoring cache) that drops too; then it behaves.
      proxy.throttleBps = 48 * KiB;
      proxy.faults.push({ dropAfter: 40 * KiB }, {}, { ignoreRange: true, dropAfter: 120 * KiB });
      await dialog.getByRole('button', { name: 'Download Small' }).click();
      await waitForRecord(page, movie.id, (r) => r.committed > 40 * KiB && r.committed < small.bytes);
      expect(proxy.log).toHaveLength(2);
      await page.reload();
      proxy.throttleBps = null;
      const record = await waitForRecord(page, movie.id, isComplete, 90_000);
      expect(record).toMatchObject({ size: small.bytes, sizeChoice: 'small' });
      expect(proxy.log.map((f) => f.dropped)).toEqual([true, false, true, false]);
      expect(proxy.log[2]!.status).toBe(200);

      // Offline, from the phone's own copy.
      await page.evaluate(() => navigator.serviceWorker.ready);
      await page.reload();
      await context.setOffline(true);
      await page.goto(`/downloads/${movie.id}/play`);
      await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2);
      const player = page.locator('video');
      await player.evaluate(
        (v: HTMLVideoElement) =>
          new Promise<void>((resolve) => {
            v.addEventListener('seeked', () => resolve(), { once: true });
            v.currentTime = 2;
          }),
      );
      expect(await player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);

      // What it used: the phone's count of bytes received, re-fetches included.
      await page.goto('/downloads');
      const used = page.getByTestId('data-used');
      await used.waitFor();
      const fetched = record.bytesFromNetwork;
      const percent = Math.round(((fetched - small.bytes) / small.bytes) * 100);
      expect(percent).toBeGreaterThan(0);
      expect(await used.innerText()).toBe(`Small · Used ${formatBytes(fetched)} of data (${percent} % re-fetched)`);
      await context.setOffline(false);

      // The server sent at least what the proxy passed on, which is at least what the phone counted.
      const session = await browserSession(page);
      const serverFetched = async () => {
        const { downloads } = await apiCall<{
          downloads: Array<{ movieId: string; size: string; fetchedBytes: number }>;
        }>('/users/me/downloads', { token: session.token, deviceId: session.deviceId });
        return downloads.find((d) => d.movieId === movie.id)!;
      };
      await expect
        .poll(async () => (await serverFetched()).fetchedBytes, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(proxy.bytesServed());
      expect((await serverFetched()).size).toBe('small');
      expect(proxy.bytesServed()).toBeGreaterThanOrEqual(fetched);
      // The figures, for the record: what a drop costs on each side of the wire.
      console.info(
        `Small ${small.bytes} B: phone counted ${fetched} B (${percent} % re-fetched), proxy sent ${proxy.bytesServed()} B, ` +
          `server counted ${(await serverFetched()).fetchedBytes} B`,
      );

      // Byte-exact: the file on the phone is the Small the server serves.
      const served = await servedBytes(movie.id, 'small');
      expect(served.length).toBe(small.bytes);
      expect(await opfsSha256(page, movie.id)).toEqual({ size: small.bytes, sha: sha256(served) });
    } finally {
      await context.close();
    }
  }, 300_000);
});
