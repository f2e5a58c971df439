import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINAYUGANDA_FIRST, SUBSCRIPTION_REQUIRED } from '../shared/src/schemas/downloads.ts';
import { expectAccessible } from './support/axe.ts';
import { login } from './support/browser.ts';
import {
  isComplete,
  licenceOnPhone,
  opfsSha256,
  sha256,
  smallMovie,
  subscriberPage,
  waitForRecord,
} from './support/downloads.ts';
import { keepCopy, openFilmFile } from './support/film-files.ts';
import { addMovie, type FilmServer, startFilmServer } from './support/encrypted-films.ts';
import type { FaultProxy } from './support/fault-proxy.ts';
import { createPlan, registerUser, subscribeUser } from './support/seed.ts';

/**
 * A film that travels as a file (issue 19/22, decision 0243), in Chromium against a server that encrypts and hashes
 * what it stores: one phone keeps a copy of its download as a `.filamu` file; another person's phone opens it with
 * "Open a film file", checks it, gets its own licence and plays it without fetching a byte of the film; a phone without
 * a plan keeps the film waiting and says why; a damaged copy is refused and nothing of it is kept.
 */
let films: FilmServer;
let browser: Browser;
let proxy: FaultProxy;
let origin: string;
let planId: string;
let planName: string;

beforeAll(async () => {
  films = await startFilmServer();
  ({ browser, proxy, origin } = films);
  ({ id: planId, plan_name: planName } = await createPlan({ global_expiry_date: '2030-12-31T23:59' }));
});

afterAll(() => films?.close());

/** A phone of its own (a browser profile) with this person signed in, on My Downloads. */
async function phoneOf(user: { email: string; password: string }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  await login(page, user.email, user.password);
  await page.waitForURL(/\/(dashboard|subscription)$/);
  await page.goto('/downloads');
  await page.getByRole('heading', { name: 'Got a film from a friend?' }).waitFor();
  return { context, page };
}

describe('A film sent as a file', () => {
  it('opens on a friend’s phone with their own plan and no data for the film; waits on a phone without one; a damaged copy is refused', async () => {
    const title = `Sent Along ${Date.now().toString(36)}`;
    const movie = await addMovie(planId, title);
    const { context: senderPhone, page: sender } = await subscriberPage(browser, origin, planId);
    const friend = await registerUser();
    await subscribeUser(friend.id, planId);
    const noPlan = await registerUser();
    const folder = mkdtempSync(join(tmpdir(), 'filamu-film-file-'));
    let friendPhone: BrowserContext | null = null;
    let noPlanPhone: BrowserContext | null = null;
    try {
      // The sender downloads the Original and keeps a copy: the held bytes behind the .filamu header.
      await sender.goto(`/movies/${movie.id}`);
      await sender.getByRole('button', { name: 'Download Now' }).click();
      const dialog = sender.getByRole('dialog', { name: `Download ${title}` });
      await dialog.getByRole('radio', { name: /^Original · / }).check();
      await dialog.getByRole('button', { name: 'Download Original' }).click();
      const record = await waitForRecord(sender, movie.id, (r) => isComplete(r) && typeof r.manifest === 'string');
      const held = await opfsSha256(sender, movie.id);
      const { copy, path } = await keepCopy(sender, title, folder);
      const manifestLength = copy.readUInt32BE(8);
      expect(copy.subarray(0, 8).toString('latin1')).toBe('FILAMU\x00\x01');
      expect(copy.subarray(12, 12 + manifestLength).toString('latin1')).toBe(record.manifest);
      expect(sha256(copy.subarray(12 + manifestLength))).toBe(held.sha);

      // The friend's phone opens it: checked, kept, licensed for this phone, and no film file fetched for it.
      const filesBefore = proxy.log.length;
      const opened = await phoneOf(friend);
      friendPhone = opened.context;
      const { page } = opened;
      await openFilmFile(page, path);
      await page.getByText(`${title} is on this phone. 0 MB of data used for the film.`).waitFor();
      expect(await licenceOnPhone(page, movie.id)).toMatchObject({ way: 'transfer', opens: true });
      expect(await opfsSha256(page, movie.id)).toEqual(held);
      await page.getByRole('article', { name: title }).getByText('Received from a phone · 0 MB of data').waitFor();
      await expectAccessible(page, 'Open a film file: opened');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page
        .getByRole('article', { name: title })
        .getByRole('link', { name: `Play ${title}` })
        .click();
      await page.waitForURL(`**/downloads/${movie.id}/play`);
      const video = page.locator('video');
      await video.waitFor();
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.3, undefined, {
        timeout: 30_000,
      });
      expect(await video.evaluate((v: HTMLVideoElement) => v.error?.code ?? null)).toBeNull();
      expect(proxy.log.length).toBe(filesBefore);

      // Another phone, in the dark: one flipped byte in the film is refused, part by part, and nothing is kept.
      const other = await phoneOf(noPlan);
      noPlanPhone = other.context;
      const waiting = other.page;
      await waiting.evaluate(() => localStorage.setItem('theme', 'dark'));
      await waiting.reload();
      const damaged = Buffer.from(copy);
      damaged[12 + manifestLength + 1000]! ^= 0xff;
      const damagedPath = join(folder, 'Damaged.filamu');
      writeFileSync(damagedPath, damaged);
      await openFilmFile(waiting, damagedPath);
      await waiting
        .getByRole('alert')
        .getByText(/^Part 1 of \d+ of this film file is damaged/)
        .waitFor();
      await expectAccessible(waiting, 'Open a film file: damaged (dark)');
      expect(await waiting.getByRole('article', { name: title }).count()).toBe(0);

      // Its person has no plan: the whole file is kept, and the phone says why it does not play yet.
      await openFilmFile(waiting, path);
      await waiting.getByText(`${title} is on this phone. 0 MB of data used for the film.`).waitFor();
      await waiting.getByText(SUBSCRIPTION_REQUIRED).waitFor();
      await waiting.getByRole('article', { name: title }).waitFor();
      expect(await licenceOnPhone(waiting, movie.id)).toBeNull();
      // It says which plans have the film, with their prices, and pays for one from here.
      const plans = waiting.getByRole('list', { name: 'Plans with this film' });
      await plans.getByText(`${planName} · UGX 10,000`).waitFor();
      await expectAccessible(waiting, 'Open a film file: plans with the film (dark)');
      await plans.getByRole('link', { name: `Pay for ${planName}` }).click();
      await waiting.waitForURL(`**/checkout/${planId}`);
    } finally {
      await friendPhone?.close();
      await noPlanPhone?.close();
      await senderPhone.close();
    }
  }, 180_000);

  it('says before the copy that an English film waits for the Kinayuganda rule, and keeps it only when asked', async () => {
    const stamp = Date.now().toString(36);
    const plan = (await createPlan({ global_expiry_date: '2030-12-31T23:59' })).id;
    const kinayuganda = `Still To Watch ${stamp}`;
    const first = await addMovie(plan, kinayuganda);
    const english = `Far Away ${stamp}`;
    const movie = await addMovie(plan, english, smallMovie(english), 'English');
    const folder = mkdtempSync(join(tmpdir(), 'filamu-film-file-'));
    const receiver = await registerUser();
    await subscribeUser(receiver.id, plan);
    // The sender met the rule (the plan's Kinayuganda film first), then downloaded the English film.
    const { context: senderPhone, page: sender } = await subscriberPage(browser, origin, plan);
    let receiverPhone: BrowserContext | null = null;
    try {
      for (const [id, title] of [
        [first.id, kinayuganda],
        [movie.id, english],
      ] as const) {
        await sender.goto(`/movies/${id}`);
        await sender.getByRole('button', { name: 'Download Now' }).click();
        const dialog = sender.getByRole('dialog', { name: `Download ${title}` });
        await dialog.getByRole('radio', { name: /^Original · / }).check();
        await dialog.getByRole('button', { name: 'Download Original' }).click();
        await waitForRecord(sender, id, (r) => isComplete(r) && typeof r.manifest === 'string');
      }
      const { path } = await keepCopy(sender, english, folder);

      // The receiver has not downloaded the plan's Kinayuganda film: told so before anything is copied.
      const opened = await phoneOf(receiver);
      receiverPhone = opened.context;
      const { page } = opened;
      await openFilmFile(page, path);
      const warning = page.getByRole('alert').filter({ hasText: 'This is an English film' });
      await warning.getByText('it unlocks once you have downloaded 1 Kinayuganda film more').waitFor();
      await expectAccessible(page, 'Open a film file: English before the rule');
      await warning.getByRole('button', { name: 'Not now' }).click();
      await warning.waitFor({ state: 'detached' });
      expect(await page.getByRole('article', { name: english }).count()).toBe(0);

      // Asked to keep it: it waits on the phone, with no licence, and says why.
      await openFilmFile(page, path);
      await warning.getByRole('button', { name: 'Keep it for later' }).click();
      await page.getByText(`${english} is on this phone. 0 MB of data used for the film.`).waitFor();
      await page.getByText(KINAYUGANDA_FIRST).first().waitFor();
      await page.getByRole('article', { name: english }).waitFor();
      expect(await licenceOnPhone(page, movie.id)).toBeNull();
    } finally {
      await receiverPhone?.close();
      await senderPhone.close();
    }
  }, 180_000);
});
