/**
 * The player's figures (not pass/fail), plain against encrypted in the same run, as ratios (decisions 0229, 0232,
 * 0235), in headless desktop Chromium against the built app on 127.0.0.1 — not a Tecno phone: read the ratios, not
 * the milliseconds.
 *
 * One real test film is made with ffmpeg (testsrc + sine, 480p H.264 + AAC, faststart, a keyframe every 2 s;
 * `BENCH_FILM_SECONDS` sets its length, 180 by default) and put on one phone twice, as the encrypted-play e2e does
 * (no server encryption): once as a plain download (no `fileNonce`: played from an object URL of the OPFS file) and
 * once encrypted here with AES-128-CTR from block 0's counter and a licence for the phone's key (played from
 * `/play/<key>` through the service worker, which decrypts each range from OPFS).
 *
 * Rounds alternate plain and encrypted, 5 of each, then 5 of each again with the page's CPU throttled 4× (CDP
 * `Emulation.setCPUThrottlingRate`). Each round is a full navigation to `/downloads/<movieId>/play`, then:
 * - first frame: navigation start (the page's `performance.timeOrigin`) → the first `requestVideoFrameCallback` after
 *   Play is tapped (Playwright taps it as soon as it shows; the tap's own delay is in both kinds alike);
 * - seek to 80 %, then to 20 % of the duration while playing: `currentTime` set → `seeked` and a frame presented
 *   within 1 s of the target.
 * Then the decryption itself: every 256 KB chunk of the encrypted file in OPFS read and decrypted with WebCrypto as the
 * service worker does (in the service worker, and in the page for comparison), the time inside `decrypt` summed,
 * throttled and not; and a fixed pure-JS loop in each, to see whether the throttling reaches the service worker.
 * (The service worker's own CDP `Performance.getMetrics` TaskDuration is not read: Playwright opens CDP sessions on
 * pages, not workers, so its CPU is timed from inside instead.)
 *
 * Run: `npx pnpm@10 bench:player` after a build (`npx pnpm@10 build`). Prints to stdout only, like the other benches.
 */
import { execFileSync } from 'node:child_process';
import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page, type Worker } from 'playwright-core';
import { filmCounterBlock } from '../../shared/src/film-cipher.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH, newUser, register, useServer } from '../support/browser.ts';
import { browserSession, keepLicenceOnPhone, localRecord, putLocalDownload } from '../support/downloads.ts';
import { controlledByServiceWorker } from '../support/service-worker.ts';
import { startBuiltServer } from '../support/server.ts';

const FILM_SECONDS = Number(process.env.BENCH_FILM_SECONDS ?? 180);
const ROUNDS = 5;
const THROTTLE = 4;
const CHUNK = 256 * 1024;
const MB = 1_000_000;
/**
 * tsx compiles this file keeping function names (`__name(fn, 'name')` around inner functions); the functions sent to
 * the page and the service worker carry those calls, so each context gets a `__name` that does nothing.
 */
const KEEP_NAMES = 'globalThis.__name = (fn) => fn;';

type Kind = 'plain' | 'encrypted';

interface Round {
  firstFrameMs: number;
  seek80Ms: number;
  seek20Ms: number;
}

/** A 480p H.264 + AAC MP4 with its index first; the noise keeps x264 near the bitrate asked for (~1.5 Mbit/s). */
function makeFilm(dir: string, seconds: number): Buffer {
  const path = join(dir, 'bench-film.mp4');
  execFileSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `testsrc=size=854x480:rate=25:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
      ...['-vf', 'noise=alls=12:allf=t'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '1400k', '-maxrate', '1400k', '-bufsize', '2800k'],
      ...['-g', '50', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '96k', '-movflags', '+faststart', '-shortest'],
      path,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return readFileSync(path);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Runs in every document before the app: notes when the first frame is presented after the video starts playing,
 * in ms since navigation start.
 */
function instrument(): void {
  const bench = { firstFrame: null as number | null };
  (window as unknown as { __bench: typeof bench }).__bench = bench;
  const hook = (video: HTMLVideoElement) => {
    if ((video as unknown as { __hooked?: boolean }).__hooked) return;
    (video as unknown as { __hooked?: boolean }).__hooked = true;
    video.addEventListener(
      'play',
      () => {
        video.requestVideoFrameCallback(() => {
          bench.firstFrame ??= performance.now();
        });
      },
      { once: true },
    );
  };
  new MutationObserver(() => {
    const video = document.querySelector('video');
    if (video) hook(video);
  }).observe(document, { childList: true, subtree: true });
}

/** Seeks the playing video to `fraction` of its duration: ms until `seeked` and until a frame near there is shown. */
function seekTo(page: Page, fraction: number): Promise<{ seekedMs: number; frameMs: number }> {
  return page.evaluate(async (fraction) => {
    const video = document.querySelector('video')!;
    const target = video.duration * fraction;
    const started = performance.now();
    return new Promise<{ seekedMs: number; frameMs: number }>((resolve, reject) => {
      let seekedAt: number | null = null;
      const timer = setTimeout(() => reject(new Error(`seek to ${target} s: no frame in 60 s`)), 60_000);
      const onFrame = (_now: number, frame: VideoFrameCallbackMetadata) => {
        if (seekedAt !== null && Math.abs(frame.mediaTime - target) < 1) {
          clearTimeout(timer);
          resolve({ seekedMs: seekedAt - started, frameMs: performance.now() - started });
        } else video.requestVideoFrameCallback(onFrame);
      };
      video.addEventListener('seeked', () => (seekedAt = performance.now()), { once: true });
      video.requestVideoFrameCallback(onFrame);
      video.currentTime = target;
    });
  }, fraction);
}

/** Forgets where the person stopped (`filamu-watching`), so Play starts at 0 with no resume prompt. */
async function forgetPositions(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('filamu-watching');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      if (!db.objectStoreNames.contains('positions')) return;
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('positions', 'readwrite');
        tx.objectStore('positions').clear();
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
    } finally {
      db.close();
    }
  });
}

async function round(page: Page, cdp: CDPSession, movieId: string, kind: Kind, rate: number): Promise<Round> {
  await page.goto('/downloads');
  await forgetPositions(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await page.goto(`/downloads/${movieId}/play`, { waitUntil: 'commit' });
  await page
    .getByRole('button', { name: 'Play', exact: true })
    .click({ timeout: 60_000 })
    .catch(async (error: unknown) => {
      throw new Error(`${kind}: no Play button; the screen says: ${await page.locator('main').innerText()}`, {
        cause: error,
      });
    });
  await page.waitForFunction(
    () => (window as unknown as { __bench: { firstFrame: number | null } }).__bench.firstFrame !== null,
    undefined,
    {
      timeout: 60_000,
    },
  );
  const firstFrameMs = await page.evaluate(
    () => (window as unknown as { __bench: { firstFrame: number } }).__bench.firstFrame,
  );
  const src = await page.locator('video').getAttribute('src');
  if (kind === 'encrypted' ? !src?.startsWith('/play/') : !src?.startsWith('blob:')) {
    throw new Error(`${kind} round played from ${src}`);
  }
  const seek80 = await seekTo(page, 0.8);
  const seek20 = await seekTo(page, 0.2);
  const error = await page.evaluate(() => document.querySelector('video')?.error?.code ?? null);
  if (error !== null) throw new Error(`${kind}: media error ${error}`);
  // Leave at 0 s, so no position worth resuming is saved on the way out.
  await page.evaluate(() => {
    const video = document.querySelector('video')!;
    video.pause();
    video.currentTime = 0;
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  return { firstFrameMs, seek80Ms: seek80.frameMs, seek20Ms: seek20.frameMs };
}

interface DecryptRun {
  bytes: number;
  chunks: number;
  /** Time inside `crypto.subtle.decrypt`, summed over the chunks (they run one after another, as in the stream). */
  decryptMs: number;
  /** Reading the chunks from OPFS and decrypting them, wall time. */
  totalMs: number;
  /** A fixed pure-JS loop, to see whether this context's thread is throttled. */
  loopMs: number;
}

/** Reads the encrypted film from OPFS and decrypts it 256 KB at a time, as the service worker's stream does. */
async function decryptAll(args: { fileName: string; rawKey: number[]; nonce: number[]; chunk: number }) {
  const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('downloads');
  const file = await (await folder.getFileHandle(args.fileName)).getFile();
  const key = await crypto.subtle.importKey('raw', new Uint8Array(args.rawKey), { name: 'AES-CTR' }, false, [
    'decrypt',
  ]);
  const counter = (block: number) => {
    const bytes = new Uint8Array(16);
    bytes.set(args.nonce, 0);
    new DataView(bytes.buffer).setBigUint64(8, BigInt(block));
    return bytes;
  };
  let decryptMs = 0;
  let chunks = 0;
  const started = performance.now();
  for (let offset = 0; offset < file.size; offset += args.chunk) {
    const encrypted = new Uint8Array(await file.slice(offset, offset + args.chunk).arrayBuffer());
    const before = performance.now();
    await crypto.subtle.decrypt({ name: 'AES-CTR', counter: counter(offset / 16), length: 64 }, key, encrypted);
    decryptMs += performance.now() - before;
    chunks += 1;
  }
  const totalMs = performance.now() - started;
  const loopStarted = performance.now();
  let x = 0;
  for (let i = 0; i < 50_000_000; i++) x = (x + i * 7) % 1_000_003;
  const loopMs = performance.now() - loopStarted + (x < 0 ? 1 : 0);
  return { bytes: file.size, chunks, decryptMs, totalMs, loopMs };
}

async function decryption(
  page: Page,
  worker: Worker,
  cdp: CDPSession,
  args: Parameters<typeof decryptAll>[0],
  rate: number,
): Promise<{ worker: DecryptRun; page: DecryptRun }> {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  try {
    // The same function in both contexts: Playwright sends its source, so it must not close over anything.
    await worker.evaluate(KEEP_NAMES);
    const inWorker = await worker.evaluate(decryptAll, args);
    const inPage = await page.evaluate(decryptAll, args);
    return { worker: inWorker, page: inPage };
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const cell = (text: string, width: number) => text.padStart(width);

function table(title: string, plain: Round[], encrypted: Round[]): void {
  console.log(`  ${title}`);
  console.log(`    ${'median of 5'.padEnd(22)}${cell('plain', 10)}${cell('encrypted', 12)}${cell('enc/plain', 11)}`);
  const rows: [string, keyof Round][] = [
    ['first frame', 'firstFrameMs'],
    ['seek to 80 %', 'seek80Ms'],
    ['seek to 20 %', 'seek20Ms'],
  ];
  for (const [label, field] of rows) {
    const p = median(plain.map((r) => r[field]));
    const e = median(encrypted.map((r) => r[field]));
    console.log(`    ${label.padEnd(22)}${cell(ms(p), 10)}${cell(ms(e), 12)}${cell(`${(e / p).toFixed(2)}×`, 11)}`);
  }
  const all = (rounds: Round[], field: keyof Round) => rounds.map((r) => r[field].toFixed(0)).join(' ');
  for (const [label, field] of rows) {
    console.log(`      ${label}, each round: plain ${all(plain, field)}; encrypted ${all(encrypted, field)} ms`);
  }
}

function decryptLine(label: string, run: DecryptRun): string {
  const mbps = run.bytes / MB / (run.decryptMs / 1000);
  return (
    `    ${label.padEnd(26)} decrypt ${mbps.toFixed(0)} MB/s, ${(run.decryptMs / run.chunks).toFixed(2)} ms per 256 KB ` +
    `chunk (${run.chunks} chunks); read + decrypt ${(run.bytes / MB / (run.totalMs / 1000)).toFixed(0)} MB/s; ` +
    `JS loop ${ms(run.loopMs)}`
  );
}

const work = mkdtempSync(join(tmpdir(), 'filamu-bench-player-'));
const server = await startBuiltServer();
useServer(server);
let context: BrowserContext | null = null;
try {
  console.log(
    `player bench: desktop Chromium ${CHROMIUM_PATH} (headless, --disable-gpu: software decoding), not a Tecno ` +
      `phone — the ratios are the point; ${cpus().length} CPU(s), load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  const started = Date.now();
  const film = makeFilm(work, FILM_SECONDS);
  console.log(
    `  film: ${FILM_SECONDS} s, 854×480 H.264 (testsrc + noise, ~1.4 Mbit/s, keyframe every 2 s) + AAC 96k, ` +
      `faststart, ${(film.length / MB).toFixed(1)} MB (made in ${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );

  context = await chromium.launchPersistentContext(join(work, 'profile'), {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    baseURL: server.baseURL,
    viewport: { width: 390, height: 844 },
  });
  await context.addInitScript(KEEP_NAMES);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.evaluate(KEEP_NAMES);
  await register(page, newUser());
  await page.waitForURL('**/subscription');
  await page.goto('/downloads');
  await controlledByServiceWorker(page);
  const { userId } = await browserSession(page);

  // The same film twice on this phone: plain, and encrypted with a licence for this phone's key.
  const common = { state: 'complete' as const, committed: film.length, completedAt: Date.now() };
  const plainId = randomUUID();
  const plain = localRecord(
    userId,
    { movieId: plainId, title: 'Bench Plain', size: film.length },
    { ...common, reportedComplete: true, rating: 'all', fileNonce: null },
  );
  await putLocalDownload(page, plain, film);
  const sealedId = randomUUID();
  const rawKey = randomBytes(16);
  const nonce = randomBytes(8);
  const cipher = createCipheriv('aes-128-ctr', rawKey, filmCounterBlock(nonce, 0));
  const sealedBytes = Buffer.concat([cipher.update(film), cipher.final()]);
  const sealed = localRecord(
    userId,
    { movieId: sealedId, title: 'Bench Encrypted', size: film.length },
    { ...common, reportedComplete: true, rating: 'all', fileNonce: nonce.toString('base64url') },
  );
  // The licence was made here, so the server does not know it and the app's online check (decision 0233) would mark it
  // revoked on the next page load: the bench answers that check itself, "none revoked".
  await context.route('**/api/licences/check', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ revoked: [] }) }),
  );
  await putLocalDownload(page, sealed, sealedBytes);
  await keepLicenceOnPhone(page, sealed.ownerId, sealedId, rawKey);

  await context.addInitScript(instrument);
  const cdp = await context.newCDPSession(page);
  const movies: Record<Kind, string> = { plain: plainId, encrypted: sealedId };
  const results: Record<'normal' | 'throttled', Record<Kind, Round[]>> = {
    normal: { plain: [], encrypted: [] },
    throttled: { plain: [], encrypted: [] },
  };
  // One warm-up of each, not counted: the first opening of a file pays for caches the next ones find warm.
  for (const kind of ['plain', 'encrypted'] as const) await round(page, cdp, movies[kind], kind, 1);
  for (const [mode, rate] of [
    ['normal', 1],
    ['throttled', THROTTLE],
  ] as const) {
    for (let i = 0; i < ROUNDS; i++) {
      for (const kind of i % 2 ? (['encrypted', 'plain'] as const) : (['plain', 'encrypted'] as const)) {
        results[mode][kind].push(await round(page, cdp, movies[kind], kind, rate));
      }
    }
  }

  const worker = context.serviceWorkers()[0];
  if (!worker) throw new Error('no service worker to measure decryption in');
  const args = {
    fileName: `${sealed.key.replaceAll(':', '_')}.bin`,
    rawKey: [...rawKey],
    nonce: [...nonce],
    chunk: CHUNK,
  };
  const normal = await decryption(page, worker, cdp, args, 1);
  const throttled = await decryption(page, worker, cdp, args, THROTTLE);

  console.log(`player: ${ROUNDS} rounds each, alternating plain and encrypted, after one warm-up of each`);
  table('CPU not throttled', results.normal.plain, results.normal.encrypted);
  table(
    `page CPU throttled ${THROTTLE}× (CDP Emulation.setCPUThrottlingRate on the page's session)`,
    results.throttled.plain,
    results.throttled.encrypted,
  );
  console.log(
    `  decryption of the whole encrypted film (${(film.length / MB).toFixed(1)} MB) from OPFS, 256 KB chunks, WebCrypto AES-CTR:`,
  );
  console.log(decryptLine('service worker', normal.worker));
  console.log(decryptLine('page', normal.page));
  console.log(decryptLine(`service worker, page ${THROTTLE}×`, throttled.worker));
  console.log(decryptLine(`page, page ${THROTTLE}×`, throttled.page));
  const slowed = (t: DecryptRun, n: DecryptRun) => t.loopMs / n.loopMs;
  const pageSlowed = slowed(throttled.page, normal.page);
  const workerSlowed = slowed(throttled.worker, normal.worker);
  console.log(
    `  throttling reach: under the page's ${THROTTLE}× the JS loop took ${pageSlowed.toFixed(1)}× as long in the page ` +
      `and ${workerSlowed.toFixed(1)}× in the service worker (decryption there ` +
      `${(throttled.worker.decryptMs / normal.worker.decryptMs).toFixed(1)}×) — ` +
      (workerSlowed < THROTTLE / 2
        ? `the service worker is NOT throttled ${THROTTLE}× with the page, so the throttled rounds slow the page ` +
          '(app, demuxing, decoding) far more than the decryption'
        : 'the service worker is throttled with the page'),
  );
  const filmRate = film.length / FILM_SECONDS;
  const perSecond = (normal.worker.decryptMs / normal.worker.bytes) * filmRate;
  console.log(
    `  per second of this film (${((filmRate * 8) / 1e6).toFixed(2)} Mbit/s): ${perSecond.toFixed(2)} ms of decryption ` +
      `in the service worker (${((perSecond / 1000) * 100).toFixed(2)} % of one core's second)`,
  );
  console.log(
    `player bench: done in ${((Date.now() - started) / 1000).toFixed(0)} s (desktop Chromium, not a Tecno phone)`,
  );
} finally {
  await context?.close();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
