import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kampalaDate, kampalaLocalToDate } from '../shared/src/kampala-time.ts';
import { type NightBundle, NIGHT_WINDOW_PUSH_URL } from '../shared/src/schemas/night-bundle.ts';
import { NIGHT_OVER } from '../pwa/src/features/downloads/engine/night-rules.ts';
import { apiCall } from './support/api.ts';
import { expectAccessible } from './support/axe.ts';
import { baseURL, launchBrowser } from './support/browser.ts';
import {
  movieBytes,
  opfsSha256,
  readRecord,
  sha256,
  signInSubscriber,
  tapDownload,
  waitForRecord,
} from './support/downloads.ts';
import { FaultProxy } from './support/fault-proxy.ts';
import { pushUntilShown, serviceWorker, shown, tap } from './support/push.ts';
import { createPlan, uploadMovie } from './support/seed.ts';

/**
 * Download tonight (issue 21/22) in Chromium with Playwright's clock: two films queued in the evening wait, untouched,
 * with night mode open; at the window's start both download through the fault proxy (the first through a dropped
 * connection); at its end the second pauses with its bytes kept, and the tap on the next night's push (delivered
 * through DevTools) opens night mode, which takes it on from there. The screen wake lock is stubbed to count its requests and to refuse the first.
 *
 * The clock is the page's: the engine's worker keeps the real one, which is why the night is set in the future (a
 * film's night deadline is then still ahead by either clock) and why night mode, not the worker, is what pauses it.
 */
const KiB = 1024;
const MiB = 1024 * KiB;

let browser: Browser;
let proxy: FaultProxy;
let origin: string;
let planId: string;

beforeAll(async () => {
  browser = await launchBrowser();
  proxy = new FaultProxy({ upstream: baseURL() });
  origin = await proxy.listen();
  planId = (await createPlan()).id;
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
});

/** The first night window that opens at least a day from now (real time), as the operator set it. */
async function tomorrowsNight(): Promise<{ opensAt: number; closesAt: number; hours: string }> {
  const bundle = await apiCall<NightBundle>('/settings/night-bundle');
  const window = bundle.windows[0]!;
  const day = kampalaDate(new Date(Date.now() + 24 * 3_600_000));
  const opensAt = kampalaLocalToDate(`${day}T${window.start}`).getTime();
  let closesAt = kampalaLocalToDate(`${day}T${window.end}`).getTime();
  if (closesAt <= opensAt) closesAt += 24 * 3_600_000;
  return { opensAt, closesAt, hours: `${window.start}–${window.end}` };
}

/** Moves the page's clock to `at` (fake ms), firing the timers due on the way once. */
async function clockTo(page: Page, at: number): Promise<void> {
  const now = await page.evaluate(() => Date.now());
  if (at > now) await page.clock.fastForward(at - now);
}

/** Axe at 360 px in light and dark, and no sideways scroll. */
async function checkScreen(page: Page, label: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.classList.contains('dark')))
      .toBe(colorScheme === 'dark');
    // Buttons fade between the themes' colours: axe reads them once they are there.
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
    await expectAccessible(page, `${label}, ${colorScheme}, 360 px`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const wakeLockCalls = (page: Page) => page.evaluate(() => (window as unknown as { __wakeLocks: number }).__wakeLocks);

describe('Download tonight', () => {
  it('queues two films in the evening, fetches them only inside the night window, pauses the second at its end', async () => {
    const night = await tomorrowsNight();
    const first = await uploadMovie(movieBytes(2 * MiB + 1234), {
      title: `Night One ${Date.now().toString(36)}`,
      category: 'Kinayuganda',
      planIds: [planId],
    });
    const secondBytes = movieBytes(6 * MiB + 77);
    const second = await uploadMovie(secondBytes, {
      title: `Night Two ${Date.now().toString(36)}`,
      category: 'Kinayuganda',
      planIds: [planId],
    });

    const context = await browser.newContext({ baseURL: origin, viewport: { width: 360, height: 740 } });
    // The phone's screen lock: counted, refused the first time (battery saver), granted after; releasable at will.
    await context.addInitScript(() => {
      const w = window as unknown as { __wakeLocks: number; __loseWakeLock: () => void };
      w.__wakeLocks = 0;
      let held: (EventTarget & { release: () => Promise<void> }) | null = null;
      w.__loseWakeLock = () => void held?.release();
      Object.defineProperty(navigator, 'wakeLock', {
        configurable: true,
        value: {
          request: async () => {
            w.__wakeLocks += 1;
            if (w.__wakeLocks === 1) throw new DOMException('Battery saver is on', 'NotAllowedError');
            const sentinel = Object.assign(new EventTarget(), {
              type: 'screen',
              released: false,
              release: async () => {
                sentinel.released = true;
                sentinel.dispatchEvent(new Event('release'));
              },
            });
            held = sentinel;
            return sentinel;
          },
        },
      });
    });
    await context.grantPermissions(['notifications'], { origin });
    await context.clock.install({ time: night.opensAt - 5 * 60_000 });
    const page = await context.newPage();
    try {
      await signInSubscriber(page, planId);

      // In the evening, each film from its size dialog: both prices and the night bundle's hours in front of the person.
      for (const movie of [first, second]) {
        await page.goto(`/movies/${movie.id}`);
        await page.getByRole('button', { name: 'Download Now' }).click();
        const dialog = page.getByRole('dialog');
        const prices = dialog.getByTestId('tonight-prices');
        await expect.poll(() => prices.innerText()).toMatch(/ now · .+ tonight\s+Night bundle hours /);
        expect(await prices.innerText()).toContain(`Night bundle hours ${night.hours} (Kampala time)`);
        await dialog.getByRole('button', { name: 'Download tonight' }).click();
        await waitForRecord(page, movie.id, (r) => r.state === 'paused');
      }

      // Night mode before the window: the dark clock screen, the refused lock said in words, then held on return.
      await page.goto('/downloads/tonight');
      await page.getByRole('list', { name: 'Films waiting for tonight' }).getByText(first.title).waitFor();
      await checkScreen(page, 'night mode before it starts');
      await page.getByRole('button', { name: 'Start night mode' }).click();
      await page.getByTestId('night-screen').waitFor();
      expect(await page.getByTestId('night-status').innerText()).toContain('Nothing downloads before then.');
      await expect.poll(() => page.getByTestId('screen-hold').innerText()).toContain('would not keep the screen on');
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await expect.poll(() => page.getByTestId('screen-hold').innerText()).toContain('The screen stays on');
      await page.evaluate(() => (window as unknown as { __loseWakeLock: () => void }).__loseWakeLock());
      await expect.poll(() => page.getByTestId('screen-hold').innerText()).toContain('Keep Filamu open');
      await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
      await expect.poll(() => page.getByTestId('screen-hold').innerText()).toContain('The screen stays on');
      expect(await wakeLockCalls(page)).toBe(3);

      await checkScreen(page, 'the night screen');

      // A reload before the window: the same night, kept on the phone, and the screen asked for again.
      await page.reload();
      await page.getByTestId('night-screen').waitFor();
      expect(await page.getByTestId('night-status').innerText()).toContain('Nothing downloads before then.');
      await expect.poll(() => wakeLockCalls(page)).toBeGreaterThanOrEqual(1);

      // Nothing is fetched before the window, however long the page waits.
      await new Promise((r) => setTimeout(r, 3000));
      expect(proxy.log).toEqual([]);
      for (const movie of [first, second]) {
        expect(await readRecord(page, movie.id)).toMatchObject({ state: 'paused', committed: 0, url: null });
      }

      // The window opens: both download, slowly, the second through a dropped connection. (The drop is the second's:
      // the engine fetches one film at a time and takes the next while one waits out a drop, so a drop in the first
      // would let the second run to its end unseen.)
      proxy.faults.push({}, { dropAfter: 300 * KiB });
      proxy.throttleBps = 256 * KiB;
      await clockTo(page, night.opensAt + 1000);
      await waitForRecord(page, first.id, (r) => r.state === 'complete', 90_000);
      const midway = await waitForRecord(
        page,
        second.id,
        (r) => r.state === 'downloading' && r.resumes >= 1 && r.committed >= MiB,
      );
      expect(proxy.log.map((f) => f.dropped)).toEqual([false, true, false]);
      expect(midway.committed).toBeLessThan(secondBytes.length);

      // The window closes: the second pauses where it is, its bytes kept, and no byte more is fetched.
      await clockTo(page, night.closesAt + 1000);
      const paused = await waitForRecord(page, second.id, (r) => r.state === 'paused');
      expect(paused.message).toBe(NIGHT_OVER);
      expect(paused.committed).toBeGreaterThanOrEqual(MiB);
      // Read once the engine has let go of the file (it closes it as the transfer stops).
      await expect
        .poll(() =>
          opfsSha256(page, second.id).then(
            (file) => file.size,
            () => -1,
          ),
        )
        .toBeGreaterThanOrEqual(paused.committed);
      const requestsAtClose = proxy.log.length;
      await new Promise((r) => setTimeout(r, 3000));
      expect(proxy.log.length).toBe(requestsAtClose);
      expect((await readRecord(page, second.id))!.state).toBe('paused');

      // The morning: what arrived, what did not and why, and the night's bytes.
      const morning = page.getByTestId('morning-report');
      await morning.waitFor();
      expect(await morning.innerText()).toContain(first.title);
      expect(await morning.innerText()).toMatch(/before it finished \(.+ kept\); the rest downloads next night/);
      expect(await page.getByTestId('morning-saved').innerText()).toMatch(
        /came at night prices: you saved (about|less than) UGX/,
      );
      await checkScreen(page, 'the morning');

      // The next night, the tap on the window-start push: night mode opens and the second goes on from its bytes.
      proxy.throttleBps = null;
      await clockTo(page, night.opensAt + 24 * 3_600_000 + 1000);
      // Filamu is on another screen when the night's push comes (through DevTools, as the push tests deliver one).
      await page.goto('/downloads');
      const { worker, cdp, id } = await serviceWorker(context, page);
      const nightPush = {
        kind: 'night-window',
        title: 'Your night bundle is on',
        body: "Your night bundle is on: tap to start tonight's films",
        url: NIGHT_WINDOW_PUSH_URL,
        tag: 'night-window',
      };
      await pushUntilShown(cdp, id, worker, nightPush);
      expect((await shown(worker)).find((n) => n.tag === 'night-window')).toMatchObject({
        body: "Your night bundle is on: tap to start tonight's films",
      });
      await tap(worker, 'night-window');
      await page.waitForURL(/\/downloads\/tonight/);
      await page.getByTestId('night-screen').waitFor();
      const done = await waitForRecord(page, second.id, (r) => r.state === 'complete', 90_000);
      expect(proxy.log[requestsAtClose]!.range).toMatch(/^bytes=[1-9]\d*-$/);
      expect(await opfsSha256(page, second.id)).toEqual({ size: secondBytes.length, sha: sha256(secondBytes) });
      expect(done.bytesFromNetwork).toBeLessThan(secondBytes.length + 2 * MiB);
    } finally {
      await context.close();
    }
  }, 300_000);

  it('moves a film downloading by day to tonight from My Downloads: it stops at once, its bytes kept', async () => {
    const bytes = movieBytes(8 * MiB + 5);
    const movie = await uploadMovie(bytes, {
      title: `Day to night ${Date.now().toString(36)}`,
      category: 'Kinayuganda',
      planIds: [planId],
    });
    const context = await browser.newContext({ baseURL: origin, viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    try {
      await signInSubscriber(page, planId);
      proxy.throttleBps = 128 * KiB;
      await tapDownload(page, movie.id);
      await waitForRecord(page, movie.id, (r) => r.state === 'downloading' && r.committed >= 256 * KiB);
      await page.goto('/downloads');
      await page.getByRole('button', { name: `Download tonight ${movie.title}` }).click();

      const waiting = await waitForRecord(page, movie.id, (r) => r.state === 'paused');
      expect(waiting.committed).toBeGreaterThanOrEqual(256 * KiB);
      const tonight = page.getByRole('region', { name: 'Download tonight' });
      await expect.poll(() => tonight.getByTestId('tonight-count').innerText()).toBe('1 film is waiting for tonight.');
      // Data stops there: no request follows, however long the page waits, until night mode takes it in a window.
      const requests = proxy.log.length;
      await new Promise((r) => setTimeout(r, 2500));
      expect(proxy.log.length).toBe(requests);
      expect((await readRecord(page, movie.id))!.committed).toBe(waiting.committed);
      // Spending day data is then the person's own choice, said plainly.
      await page.getByRole('button', { name: `Download now ${movie.title}` }).waitFor();
    } finally {
      proxy.throttleBps = null;
      await context.close();
    }
  }, 120_000);
});
