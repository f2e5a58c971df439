import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RedownloadAllowance } from '../shared/src/schemas/downloads.ts';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { login } from './support/browser.ts';
import {
  browserSession,
  isComplete,
  licenceOnPhone,
  opfsSha256,
  sha256,
  subscriberPage,
  tapDownload,
  waitForRecord,
} from './support/downloads.ts';
import {
  addMovie,
  type FilmServer,
  noisyMovie,
  opfsHead,
  startFilmServer,
  storedFilm,
  waitForRevoked,
} from './support/encrypted-films.ts';
import type { FaultProxy } from './support/fault-proxy.ts';
import { createPlan, registerUser, subscribeUser } from './support/seed.ts';
import { controlledByServiceWorker } from './support/service-worker.ts';

/**
 * Encrypted films end to end (issue 18/22, decisions 0229–0235), in Chromium against a server that encrypts what it
 * stores (its own, with ffmpeg): a download through dropped connections and a reload that is byte for byte the stored
 * encrypted file and plays offline; Keep a copy, whose file plays nowhere but Filamu; and a licence brought back from
 * another phone without the bytes. The phones load everything through a fault proxy that misbehaves only on film files.
 */
const MiB = 1024 * 1024;

let films: FilmServer;
let browser: Browser;
let proxy: FaultProxy;
let origin: string;
let planId: string;
let counter = 0;

beforeAll(async () => {
  films = await startFilmServer();
  ({ browser, proxy, origin } = films);
  planId = (await createPlan({ global_expiry_date: '2030-12-31T23:59' })).id;
});

afterAll(() => films?.close());

beforeEach(() => proxy.reset());

function stamp(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter}`;
}

/** Where a ranged request starts (`bytes=N-`). */
const rangeStart = (range: string | null) => Number(/^bytes=(\d+)-$/.exec(range ?? '')?.[1] ?? NaN);

/** A phone (a browser profile of its own) that loads Filamu through the proxy, nobody signed in yet. */
const phone = (): Promise<BrowserContext> =>
  browser.newContext({ baseURL: origin, viewport: { width: 390, height: 844 }, acceptDownloads: true });

/** On the Play screen of an encrypted film: Play, then the film's time moves on with no player error. */
async function playsOn(page: Page): Promise<void> {
  const video = page.locator('video');
  await video.waitFor();
  expect(await video.getAttribute('src')).toMatch(/^\/play\//);
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3, undefined, {
    timeout: 30_000,
  });
  expect(await video.evaluate((v: HTMLVideoElement) => v.error?.code ?? null)).toBeNull();
}

describe('An encrypted download', () => {
  it('finishes through three drops and a reload, is the stored encrypted file byte for byte, and plays offline with a seek', async () => {
    const title = `Sealed Road ${stamp()}`;
    const movie = await addMovie(planId, title, noisyMovie(title, 80));
    const small = movie.sizes.find((s) => s.size === 'small')!;
    expect(small).toBeDefined();
    // Room for drops and a reload mid-way: a few of the engine's 1 MiB commits.
    expect(small.bytes).toBeGreaterThan(3 * MiB);
    const { context, page } = await subscriberPage(browser, origin, planId);
    try {
      // 1 MiB a second; the first two connections drop (before and after the first commit), the third is cut by the
      // reload, the fourth drops, the fifth finishes.
      proxy.throttleBps = MiB;
      proxy.faults.push({ dropAfter: 1.25 * MiB }, { dropAfter: MiB / 2 + 77 }, {}, { dropAfter: MiB / 2 });
      await page.goto(`/movies/${movie.id}`);
      await page.getByRole('button', { name: 'Download Now' }).click();
      const dialog = page.getByRole('dialog', { name: `Download ${title}` });
      await dialog.getByRole('button', { name: 'Cancel' }).waitFor();
      expect(await dialog.getByRole('radio', { name: /^Small · / }).isChecked()).toBe(true);
      await expectAccessible(page, 'size choice of an encrypted film');
      await dialog.getByRole('button', { name: 'Download Small' }).click();

      const before = await waitForRecord(page, movie.id, (r) => r.committed >= 2 * MiB);
      expect(before.state).not.toBe('complete');
      const atReload = proxy.log.length;
      await page.reload();
      proxy.throttleBps = null;
      // Nothing is tapped after the reload: the app picks the download up on its own.
      const done = await waitForRecord(page, movie.id, isComplete, 90_000);

      const log = proxy.log;
      expect(log.filter((f) => f.dropped)).toHaveLength(3);
      expect(log[0]!.range).toBeNull();
      for (const follow of log.slice(1)) expect(follow.range).toMatch(/^bytes=[1-9]\d*-$/);
      // After the reload it went on from its committed offset: not from 0, not past what had arrived.
      const cut = log[atReload - 1]!;
      const resumed = rangeStart(log[atReload]!.range);
      expect(resumed).toBeGreaterThanOrEqual(before.committed);
      expect(resumed).toBeLessThanOrEqual(rangeStart(cut.range) + cut.bytesSent);
      // Each drop and the reload lose at most what came since the last commit.
      expect(done.bytesFromNetwork).toBeLessThanOrEqual(small.bytes + 4 * MiB);

      // Byte for byte the file the server stores (any phone gets the same bytes through a fresh link), which is not the
      // upload and not an MP4 in the clear (a plain one opens with its `ftyp` box, as the upload does).
      const stored = await storedFilm(planId, movie.id, 'small');
      expect(stored.bytes.length).toBe(small.bytes);
      expect(await opfsSha256(page, movie.id)).toEqual({ size: stored.bytes.length, sha: sha256(stored.bytes) });
      expect(sha256(stored.bytes)).not.toBe(sha256(movie.bytes));
      expect(movie.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      expect((await opfsHead(page, movie.id, 8)).subarray(4, 8).toString('latin1')).not.toBe('ftyp');
      // The record names the file's nonce, and the film's licence opens with this phone's own key only.
      expect(stored.fileNonce).toMatch(/^[\w-]{11}$/);
      expect(done.fileNonce).toBe(stored.fileNonce);
      expect(await licenceOnPhone(page, movie.id)).toEqual({ way: 'download', opens: true, extractable: false });

      // Offline, from My Downloads → Play: it plays, and a seek to 80 % plays on.
      await controlledByServiceWorker(page);
      await context.setOffline(true);
      await page.goto('/downloads');
      const item = page.getByRole('article', { name: title });
      await item.getByText('Downloaded').waitFor();
      await item.getByRole('link', { name: `Play ${title}` }).click();
      await page.waitForURL(`**/downloads/${movie.id}/play`);
      await playsOn(page);
      const video = page.locator('video');
      const duration = await video.evaluate((v: HTMLVideoElement) => v.duration);
      expect(duration).toBeGreaterThan(70);
      const target = duration * 0.8;
      await video.evaluate((v: HTMLVideoElement, at: number) => (v.currentTime = at), target);
      await page.waitForFunction(
        (at) => {
          const v = document.querySelector('video');
          return v !== null && !v.paused && !v.seeking && v.currentTime > at + 1;
        },
        target,
        { timeout: 30_000 },
      );
      expect(await video.evaluate((v: HTMLVideoElement) => v.error?.code ?? null)).toBeNull();
      expect(await page.getByRole('alert').count()).toBe(0);
      await context.setOffline(false);
    } finally {
      await context.close();
    }
  }, 240_000);
});

/** What a plain `<video>` makes of `bytes` from a blob URL: whether it opened, its error, duration, and if it played. */
function tryInPlainVideo(page: Page, bytes: Buffer) {
  return page.evaluate(async (base64) => {
    const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([data], { type: 'video/mp4' }));
    const video = document.createElement('video');
    video.muted = true;
    document.body.append(video);
    try {
      const opened = await new Promise<'metadata' | 'error' | 'nothing'>((resolve) => {
        video.addEventListener('loadedmetadata', () => resolve('metadata'), { once: true });
        video.addEventListener('error', () => resolve('error'), { once: true });
        setTimeout(() => resolve('nothing'), 20_000);
        video.src = url;
      });
      let played = false;
      if (opened === 'metadata') {
        await video.play().catch(() => undefined);
        const started = Date.now();
        while (!video.error && video.currentTime <= 0.3 && Date.now() - started < 20_000) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        played = video.currentTime > 0.3;
      }
      return {
        opened,
        error: video.error?.code ?? null,
        duration: Number.isFinite(video.duration) ? video.duration : null,
        played,
      };
    } finally {
      video.remove();
      URL.revokeObjectURL(url);
    }
  }, bytes.toString('base64'));
}

describe('Keep a copy of an encrypted film', () => {
  it('saves the held bytes as <Title>.filamu, which a plain video player cannot open while the plain clip plays', async () => {
    const title = `Kept Copy ${stamp()}`;
    const movie = await addMovie(planId, title);
    const { context, page } = await subscriberPage(browser, origin, planId);
    const stranger = await browser.newContext();
    try {
      // The Original: its encrypted file has the clip's length, so the clip is the exact plain twin of the copy.
      await page.goto(`/movies/${movie.id}`);
      await page.getByRole('button', { name: 'Download Now' }).click();
      const dialog = page.getByRole('dialog', { name: `Download ${title}` });
      await dialog.getByRole('radio', { name: /^Original · / }).check();
      await dialog.getByRole('button', { name: 'Download Original' }).click();
      const record = await waitForRecord(page, movie.id, isComplete);
      expect(record.fileNonce).toBeTruthy();
      const held = await opfsSha256(page, movie.id);
      expect(held.size).toBe(movie.bytes.length);
      expect(held.sha).not.toBe(sha256(movie.bytes));

      // The file picker cannot be driven headless: the download-link path.
      await page.goto('/downloads');
      await page.evaluate(() =>
        Object.defineProperty(window, 'showSaveFilePicker', { configurable: true, value: undefined }),
      );
      const item = page.getByRole('article', { name: title });
      await item.getByRole('button', { name: `Keep a copy ${title}` }).click();
      const keep = page.getByRole('dialog', { name: 'Keep a copy?' });
      await keep
        .getByText(
          `A copy of ${title} is saved as ${title}.filamu. It opens only in Filamu, on a phone with its own licence for this film.`,
        )
        .waitFor();
      await expectAccessible(page, 'Keep a copy of an encrypted film');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        keep.getByRole('button', { name: 'Keep a copy' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${title}.filamu`);
      // The held bytes behind the .filamu header and its signed manifest (decision 0243; film-file.e2e.ts opens one).
      const copy = readFileSync(await download.path());
      const film = copy.subarray(12 + copy.readUInt32BE(8));
      expect({ size: film.length, sha: sha256(film) }).toEqual(held);

      // Another profile, never signed in to Filamu, on a blank page: a plain <video> plays the clip, not the copy.
      const blank = await stranger.newPage();
      const plain = await tryInPlainVideo(blank, movie.bytes);
      expect(plain).toMatchObject({ opened: 'metadata', error: null, played: true });
      expect(plain.duration).toBeCloseTo(3, 0);
      expect(await tryInPlainVideo(blank, copy)).toMatchObject({
        opened: 'error',
        error: expect.any(Number),
        duration: null,
        played: false,
      });
    } finally {
      await stranger.close();
      await context.close();
    }
  }, 120_000);
});

describe('A film whose licence moved to another phone', () => {
  it('is brought back with "Get it on this phone" for one re-download and no bytes; the other phone then hears it moved', async () => {
    const title = `Two Phones ${stamp()}`;
    const movie = await addMovie(planId, title);
    const user = await registerUser();
    await subscribeUser(user.id, planId);
    const phoneA = await phone();
    const phoneB = await phone();
    try {
      // Phone A downloads the film, with its licence.
      const a = await phoneA.newPage();
      await login(a, user.email, user.password);
      await a.waitForURL('**/dashboard');
      await tapDownload(a, movie.id);
      await waitForRecord(a, movie.id, isComplete);
      expect(await licenceOnPhone(a, movie.id)).toMatchObject({ way: 'download', opens: true });
      await controlledByServiceWorker(a);

      // The same person on phone B (which signs A out): the film is not on this phone; Download again says what it
      // uses, and the licence moves with the re-download.
      const b = await phoneB.newPage();
      await login(b, user.email, user.password);
      await b.waitForURL('**/dashboard');
      await b.goto(`/movies/${movie.id}`);
      await b.getByRole('button', { name: 'Download again' }).click();
      const again = b.getByRole('dialog', { name: `Download ${title} again?` });
      await again.getByText(/^Uses 1 of your \d+ re-downloads this month \(\d+ left\)\.$/).waitFor();
      await expectAccessible(b, 'Download again on a second phone');
      await again.getByRole('button', { name: 'Download again' }).click();
      await waitForRecord(b, movie.id, isComplete);
      expect(await licenceOnPhone(b, movie.id)).toMatchObject({ way: 'redownload', opens: true });

      // Phone A, signed out by B's sign-in, signs in again. Its online check hears the licence moved.
      await a.goto('/downloads');
      await a.getByText('Signed out on this phone — sign in to download more').waitFor();
      await waitForRevoked(a, movie.id, 'moved');
      await login(a, user.email, user.password);
      await a.waitForURL('**/dashboard');
      const session = await browserSession(a);
      const auth = { token: session.token, deviceId: session.deviceId };
      const allowance = await apiCall<RedownloadAllowance>('/users/me/redownloads', auth);
      // B's re-download was this month's first.
      expect(allowance.usedThisMonth).toBe(1);
      expect(allowance.perMonth).toBeGreaterThan(1);

      await a.goto('/downloads');
      await a
        .getByRole('article', { name: title })
        .getByRole('link', { name: `Play ${title}` })
        .click();
      await a.waitForURL(`**/downloads/${movie.id}/play`);
      await a.getByRole('alert').getByText('This film was saved on another phone.').waitFor();
      await a
        .getByText(`Uses 1 of your ${allowance.perMonth} re-downloads this month (${allowance.remaining - 1} left).`, {
          exact: true,
        })
        .waitFor();
      expect(await a.locator('video').count()).toBe(0);

      // Get it on this phone: the film plays on A, and no film file was fetched for it.
      const filesBefore = proxy.log.length;
      // Both phones' downloads went through the proxy: a fetch of the film would be counted.
      expect(filesBefore).toBeGreaterThanOrEqual(2);
      await a.getByRole('button', { name: 'Get it on this phone' }).click();
      await playsOn(a);
      expect(proxy.log.length).toBe(filesBefore);
      expect(await licenceOnPhone(a, movie.id)).toMatchObject({ way: 'redownload', opens: true });
      const after = await apiCall<RedownloadAllowance>('/users/me/redownloads', auth);
      expect(after.remaining).toBe(allowance.remaining - 1);

      // Phone B's next online check hears it moved: its Play screen says so instead of playing.
      await b.goto('/downloads');
      await waitForRevoked(b, movie.id, 'moved');
      await b.goto(`/downloads/${movie.id}/play`);
      await b.getByRole('alert').getByText('This film was saved on another phone.').waitFor();
      expect(await b.locator('video').count()).toBe(0);
    } finally {
      await phoneA.close();
      await phoneB.close();
    }
  }, 180_000);
});
