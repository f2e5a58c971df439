/**
 * Poster bytes of a library page (decision 0143): the built app with 24 movies whose admin uploaded an ordinary
 * 1280×720 JPEG poster, a subscriber's library in headless Chromium (a 390 px phone at 3× and at 2×, and a
 * 1280 px laptop), scrolled to the end, fresh HTTP cache. Measured twice per screen: as before the small posters
 * (the library answer with `thumbnail_srcset` taken out, so every card loads `thumbnail_url`, which is what the PWA
 * did) and as now (the browser picks from `srcset` by the card's `sizes`). Bytes are Chromium's, over the wire.
 *
 * Build first (`npx pnpm@10 build`), then: `npx pnpm@10 bench:posters`
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, useServer } from '../e2e/support/browser.ts';
import {
  createPlan,
  mp4Bytes,
  registerUser,
  signInContext,
  subscribeUser,
  uploadMovie,
  type SeededUser,
} from '../e2e/support/seed.ts';
import { startBuiltServer } from '../e2e/support/server.ts';

const MOVIES = 24;
const SCREENS = [
  { name: 'phone 390 px @3×', viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 },
  { name: 'phone 390 px @2×', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 },
  { name: 'laptop 1280 px @1×', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
];

/** A 1280×720 JPEG with grain, about what a phone photo or a studio still is after an admin's export. */
function posterJpeg(dir: string, n: number): Buffer {
  const path = join(dir, `${n}.jpg`);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=1280x720:rate=25,noise=alls=10:allf=t,hue=h=${n * 15}`,
    '-ss',
    String(n),
    '-frames:v',
    '1',
    '-q:v',
    '3',
    path,
  ]);
  return readFileSync(path);
}

const work = mkdtempSync(join(tmpdir(), 'filamu-poster-bytes-'));
const server = await startBuiltServer();
useServer(server);
let browser: Browser | null = null;
try {
  const plan = await createPlan({ plan_name: 'Basic', price_ugx: 15000 });
  let uploaded = 0;
  for (let n = 1; n <= MOVIES; n++) {
    const thumbnail = posterJpeg(work, n);
    uploaded += thumbnail.length;
    await uploadMovie(mp4Bytes(4096), {
      title: `Movie number ${n}`,
      category: n % 2 ? 'Kinayuganda' : 'English',
      vj: `VJ ${n % 5}`,
      planIds: [plan.id],
      thumbnail,
      thumbnailType: 'image/jpeg',
    });
  }
  const subscriber = await registerUser();
  await subscribeUser(subscriber.id, plan.id);
  await postersMade(subscriber);

  browser = await launchBrowser();
  console.log(
    `Poster bytes of the library, ${MOVIES} cards (admin's JPEGs: ${(uploaded / 1024 / MOVIES).toFixed(1)} KB each)\n`,
  );
  console.log(`${'screen'.padEnd(22)}${'before KB'.padStart(11)}${'now KB'.padStart(10)}${'saved'.padStart(8)}`);
  for (const screen of SCREENS) {
    const before = await posterBytes(browser, subscriber, screen, true);
    const now = await posterBytes(browser, subscriber, screen, false);
    console.log(
      `${screen.name.padEnd(22)}${(before / 1024).toFixed(1).padStart(11)}${(now / 1024).toFixed(1).padStart(10)}` +
        `${`${Math.round(100 - (100 * now) / before)} %`.padStart(8)}`,
    );
  }
} finally {
  await browser?.close();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

/** Waits for the server's poster sweep to have made every movie's posters. */
async function postersMade(subscriber: SeededUser): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const res = await fetch(`${server.baseURL}/api/users/movies?pageSize=100`, {
      headers: { authorization: `Bearer ${subscriber.token}`, 'x-device-id': subscriber.deviceId },
    });
    const body = (await res.json()) as { movies: { thumbnail_srcset: string | null }[] };
    const made = body.movies.filter((m) => m.thumbnail_srcset).length;
    if (made >= MOVIES) return;
    if (Date.now() > deadline) throw new Error(`only ${made} of ${MOVIES} movies have posters after 5 minutes`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** The bytes of the poster images the library loads, scrolled to the end, in a fresh context. */
async function posterBytes(
  browser: Browser,
  subscriber: SeededUser,
  screen: (typeof SCREENS)[number],
  asBefore: boolean,
): Promise<number> {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    viewport: screen.viewport,
    deviceScaleFactor: screen.deviceScaleFactor,
    serviceWorkers: 'block',
  });
  try {
    await signInContext(context, subscriber);
    if (asBefore) {
      await context.route('**/api/users/movies**', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { movies: { thumbnail_srcset: string | null }[] };
        for (const movie of body.movies) movie.thumbnail_srcset = null;
        await route.fulfill({ response, json: body });
      });
    }
    const page = await context.newPage();
    const sizes: Promise<number>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'image' || !new URL(request.url()).pathname.startsWith('/files/')) return;
      sizes.push(request.sizes().then((s) => s.responseHeadersSize + s.responseBodySize));
    });
    await page.goto('/movies');
    await page.getByText('Movie number 1', { exact: true }).first().waitFor();
    // Scrolled to the end, every poster on the page loads (lazy images would otherwise vary from run to run).
    for (let y = 0; y < 20; y++) {
      await page.mouse.wheel(0, 800);
      await page.waitForTimeout(100);
    }
    await page.waitForFunction(() => [...document.images].every((image) => image.complete));
    await page.waitForLoadState('networkidle');
    const loaded = await Promise.all(sizes);
    if (loaded.length < MOVIES) throw new Error(`only ${loaded.length} posters loaded on ${screen.name}`);
    return loaded.reduce((sum, n) => sum + n, 0);
  } finally {
    await context.close();
  }
}
