/**
 * Bytes of the public preview (`/browse`, decision 0215) for the demo library: the built server, the demo's plans
 * and movies, then a guest's phone in headless Chromium (390 px at 2×, fresh HTTP cache, no service worker) opening
 * the page and scrolling to its end, so every lazy poster loads. Bytes are Chromium's, over the wire (headers
 * included). With ffmpeg here the server makes the 160 px WebP posters first and the page shows those; without it,
 * the admin's thumbnails (the demo's 480×270 PNGs), as on a server without ffmpeg.
 *
 * Build first (`npx pnpm@10 build`), then: `npx pnpm@10 bench:preview`
 */
import { execFileSync } from 'node:child_process';
import { dateToKampalaLocal } from '../shared/src/kampala-time.ts';
import { DEMO_MOVIES, DEMO_PLANS } from '../api/demo/catalogue.ts';
import { generateDemoThumbnail, hexToRgb } from '../api/demo/media/index.ts';
import { launchBrowser, useServer } from '../e2e/support/browser.ts';
import { createPlan, mp4Bytes, uploadMovie } from '../e2e/support/seed.ts';
import { startBuiltServer } from '../e2e/support/server.ts';

function hasFfmpeg(): boolean {
  try {
    execFileSync('ffmpeg', ['-hide_banner', '-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const ffmpeg = hasFfmpeg();
const server = await startBuiltServer(undefined, ffmpeg ? { FFMPEG_PATH: 'ffmpeg', FFPROBE_PATH: 'ffprobe' } : {});
useServer(server);
const browser = await launchBrowser();
try {
  const movies = await seedDemoLibrary();
  if (ffmpeg) await postersMade(movies);
  // The server holds a rendering for a minute: one taken before the posters were made would be measured otherwise.
  await new Promise((resolve) => setTimeout(resolve, 61_000));

  const html: Record<string, number> = {};
  for (const coding of ['br', 'gzip', 'identity']) {
    const response = await fetch(`${server.baseURL}/browse`, { headers: { 'accept-encoding': coding } });
    // fetch decodes the body: the bytes sent are the Content-Length.
    html[coding] = Number(response.headers.get('content-length'));
    await response.arrayBuffer();
  }

  const context = await browser.newContext({
    baseURL: server.baseURL,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  const sizes: Promise<{ kind: string; bytes: number }>[] = [];
  page.on('requestfinished', (request) => {
    const kind = request.resourceType();
    sizes.push(request.sizes().then((s) => ({ kind, bytes: s.responseHeadersSize + s.responseBodySize })));
  });
  await page.goto('/browse');
  const firstScreen = await Promise.all(sizes);
  for (let y = 0; y < 30; y++) {
    await page.mouse.wheel(0, 800);
    await page.waitForTimeout(100);
  }
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  await page.waitForLoadState('networkidle');
  const all = await Promise.all(sizes);
  // Without ffmpeg, what the server's posters would weigh: each picture at 160×90 in WebP at quality 70 (the
  // server's settings, posters/make.ts), encoded by Chromium's libwebp. An estimate, said so below.
  const webpEstimate = ffmpeg
    ? null
    : await page.evaluate(() =>
        [...document.images].reduce((sum, image) => {
          const canvas = document.createElement('canvas');
          canvas.width = 160;
          canvas.height = 90;
          canvas.getContext('2d')!.drawImage(image, 0, 0, 160, 90);
          const base64 = canvas.toDataURL('image/webp', 0.7).split(',')[1]!;
          return sum + Math.floor((base64.length * 3) / 4);
        }, 0),
      );
  const total = (list: { kind: string; bytes: number }[], kind?: string) =>
    list.filter((entry) => !kind || entry.kind === kind).reduce((sum, entry) => sum + entry.bytes, 0);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

  console.log(`Public preview, demo library: ${DEMO_PLANS.length} plans, ${movies} movies`);
  console.log(`Posters: ${ffmpeg ? '160 px WebP made by the server' : "the admin's thumbnails (no ffmpeg here)"}`);
  console.log(`HTML: ${kb(html.br!)} brotli, ${kb(html.gzip!)} gzip, ${kb(html.identity!)} uncompressed`);
  console.log(`First screen (390×844 @2×): ${kb(total(firstScreen))} in ${firstScreen.length} requests`);
  console.log(
    `Scrolled to the end: ${kb(total(all))} in ${all.length} requests ` +
      `(document ${kb(total(all, 'document'))}, ${all.filter((e) => e.kind === 'image').length} posters ` +
      `${kb(total(all, 'image'))})`,
  );
  if (webpEstimate !== null) {
    console.log(`The same posters as 160 px WebP (estimated in Chromium): ${kb(webpEstimate)} of image bodies`);
  }
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}

/**
 * The demo's plans and movies with the demo's posters (api/demo/catalogue.ts, as `pnpm demo` saves them); the
 * movies' bytes are stand-ins, which the page never loads.
 */
async function seedDemoLibrary(): Promise<number> {
  const planIds = new Map<string, string>();
  for (const plan of DEMO_PLANS) {
    const { id } = await createPlan({
      plan_name: plan.name,
      price_ugx: plan.priceUgx,
      description: plan.description,
      features: plan.features,
      display_order: plan.displayOrder,
      global_expiry_date: dateToKampalaLocal(new Date(Date.now() + plan.validDays * 86_400_000)),
    });
    planIds.set(plan.name, id);
  }
  for (const movie of DEMO_MOVIES) {
    const [top, bottom] = movie.palette;
    await uploadMovie(mp4Bytes(), {
      title: movie.title,
      description: movie.description,
      category: movie.category,
      vj: movie.vj,
      rating: movie.rating,
      planIds: movie.plans.map((name) => planIds.get(name)!),
      thumbnail: generateDemoThumbnail({
        title: movie.title,
        subtitle: movie.category === 'Kinayuganda' ? movie.vj : 'English',
        palette: [hexToRgb(top), hexToRgb(bottom)],
      }),
    });
  }
  return DEMO_MOVIES.length;
}

/** Waits for the server's poster sweep to have made every movie's posters (the public list carries them). */
async function postersMade(movies: number): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const res = await fetch(`${server.baseURL}/api/users/public-movies?pageSize=100`);
    const body = (await res.json()) as { movies: { thumbnail_srcset: string | null }[] };
    const made = body.movies.filter((m) => m.thumbnail_srcset).length;
    if (made >= movies) return;
    if (Date.now() > deadline) throw new Error(`only ${made} of ${movies} movies have posters after 5 minutes`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}
