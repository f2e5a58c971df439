/**
 * Films over a hotspot (decision 0250): how fast the app moves a film phone to phone, as a RATIO against the bare
 * WebRTC data channel measured in the same run, on the same machine, in the same two Chromium profiles — not on
 * phones: read the ratio, not the MB/s.
 *
 * The film server is the e2e's (`startFilmServer`: the built server with ffmpeg, every film file encrypted). One padded
 * film of `--mib` MiB (64 by default); a sender phone downloads it (Original) and a receiver phone with a plan takes it.
 * Then, alternating, `--runs` times each (3 by default):
 * - app: the two phones connect through the UI as the e2e does (Send films → code → Receive films → typed → answer →
 *   typed); timed from the tap on Connect after the last code is typed to the receiver's "<title> is on this phone".
 *   Before each, the film is deleted on the receiver (My Downloads → Delete, and its half-received position in
 *   `localStorage['filamu.receiving']`), so it comes again from byte 0; the server re-issues the licence.
 * - baseline: a page in each of the same two contexts (about:blank), an RTCPeerConnection pair with no ICE servers
 *   signalled directly through Node, pushing the same number of bytes as 64 KiB binary messages with the app's
 *   backpressure (wait for `bufferedamountlow` while more than 256 KiB is buffered, low mark 64 KiB), the receiver
 *   only counting bytes; timed from the first send to the receiver having every byte.
 * Both contexts are the e2e's `browser.newContext()` (incognito-like: their OPFS is not on disk, as a phone's is).
 *
 * Run: `npx pnpm@10 bench:hotspot [--mib=64] [--runs=3]` after a build (`npx pnpm@10 build`). Prints to stdout only.
 */
import { cpus, loadavg } from 'node:os';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { login } from '../support/browser.ts';
import { isComplete, opfsSha256, waitForRecord } from '../support/downloads.ts';
import { addMovie, startFilmServer } from '../support/encrypted-films.ts';
import { paddedMovie } from '../support/padded-movie.ts';
import { createPlan, registerUser, subscribeUser } from '../support/seed.ts';

const MiB = 1024 * 1024;
const MB = 1_000_000;
const FRAME = 64 * 1024;
const HIGH_WATER = 256 * 1024;

function option(name: string, fallback: number): number {
  const given = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  const value = given ? Number(given.slice(name.length + 3)) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number ≥ 1, not ${given}`);
  return value;
}

const FILM_MIB = option('mib', 64);
const RUNS = option('runs', 3);
/**
 * tsx compiles this file keeping function names (`__name(fn, 'name')` around inner functions); the functions sent to
 * the pages carry those calls, so each page gets a `__name` that does nothing.
 */
const KEEP_NAMES = 'globalThis.__name = (fn) => fn;';

const load = () => loadavg()[0]!;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const rate = (bytes: number, ms: number) => bytes / MB / (ms / 1000);

interface AppRun {
  ms: number;
  /** Last code's Connect → the first 1 MiB chunk checked and kept on the receiver (the progress bar moves). */
  setupMs: number;
  /** First chunk kept → the bar at 100 %. */
  streamMs: number;
  /** Bar at 100 % → "is on this phone" (the record, the licence). */
  finishMs: number;
  loadBefore: number;
  loadAfter: number;
}

interface BaselineRun {
  ms: number;
  loadBefore: number;
  loadAfter: number;
}

// ── The app, through its UI ──────────────────────────────────────────────────────────────────────────────────────

async function phoneOf(
  browser: Browser,
  origin: string,
  user: { email: string; password: string },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 360, height: 780 } });
  await context.addInitScript(KEEP_NAMES);
  const page = await context.newPage();
  await login(page, user.email, user.password);
  await page.waitForURL(/\/(dashboard|subscription)$/);
  return { context, page };
}

async function shownCode(page: Page): Promise<string> {
  const code = page.getByRole('figure').locator('code');
  await code.waitFor();
  return (await code.textContent()) ?? '';
}

/** Types the other phone's code (not yet tapping Connect). */
async function typeCode(page: Page, code: string): Promise<void> {
  const field = page.getByRole('textbox', { name: 'Code from the other phone' });
  await field
    .or(page.getByRole('button', { name: 'Type the code instead' }))
    .first()
    .waitFor();
  // With no camera the phone opens the typing form itself, which can replace the button while it is being tapped.
  if (!(await field.isVisible())) {
    await page
      .getByRole('button', { name: 'Type the code instead' })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
  }
  await field.fill(code);
}

/** Notes, in the receiver's page, when the film's progress bar first moves and when it reaches 100 %. */
function watchProgress(): void {
  const seen = { first: 0, full: 0 };
  (window as unknown as { __progress: typeof seen }).__progress = seen;
  const look = () => {
    const value = Number(document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow') ?? 0);
    if (value > 0 && !seen.first) seen.first = Date.now();
    if (value >= 100 && !seen.full) seen.full = Date.now();
  };
  new MutationObserver(look).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['aria-valuenow'],
  });
}

/** Deletes the film on the receiver through My Downloads, and the note of how much of it had arrived. */
async function deleteOnReceiver(receiver: Page, title: string): Promise<void> {
  await receiver.goto('/downloads');
  const item = receiver.getByRole('article', { name: title });
  await item.getByRole('button', { name: /^Delete/ }).click();
  await receiver
    .getByRole('dialog', { name: 'Delete from this phone?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await item.waitFor({ state: 'detached' });
  await receiver.evaluate(() => localStorage.removeItem('filamu.receiving'));
}

async function appRun(sender: Page, receiver: Page, title: string): Promise<AppRun> {
  const loadBefore = load();
  await sender.goto('/downloads/send');
  await sender.getByRole('checkbox', { name: new RegExp(`^${title} `) }).check();
  await sender.getByRole('button', { name: 'Send' }).click();
  const offer = await shownCode(sender);
  await receiver.goto('/downloads/receive');
  await receiver.getByRole('button', { name: /Scan the sender’s code|Receive more films|Connect again/ }).click();
  await typeCode(receiver, offer);
  await receiver.getByRole('button', { name: 'Connect' }).click();
  const answer = await shownCode(receiver);
  await receiver.evaluate(watchProgress);
  await sender.getByRole('button', { name: 'Next: scan their code' }).click();
  await typeCode(sender, answer);

  const started = Date.now();
  await sender.getByRole('button', { name: 'Connect' }).click();
  await receiver.getByText(`${title} is on this phone`).waitFor({ timeout: 10 * 60_000 });
  const ended = Date.now();
  const { first, full } = await receiver.evaluate(
    () => (window as unknown as { __progress: { first: number; full: number } }).__progress,
  );
  await sender.getByText('Done.').waitFor();
  return {
    ms: ended - started,
    setupMs: first - started,
    streamMs: full - first,
    finishMs: ended - full,
    loadBefore,
    loadAfter: load(),
  };
}

// ── The bare data channel ────────────────────────────────────────────────────────────────────────────────────────

interface Bench {
  pc: RTCPeerConnection;
  channel?: RTCDataChannel;
  done?: Promise<number>;
}

async function baselineRun(a: Page, b: Page, bytes: number): Promise<BaselineRun> {
  const loadBefore = load();
  const offer = await a.evaluate(async () => {
    const pc = new RTCPeerConnection({ iceServers: [] });
    const channel = pc.createDataChannel('bench', { ordered: true });
    channel.binaryType = 'arraybuffer';
    (window as unknown as { __bench: Bench }).__bench = { pc, channel };
    await pc.setLocalDescription();
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') return resolve();
      pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
    });
    return pc.localDescription!.toJSON() as RTCSessionDescriptionInit;
  });
  const answer = await b.evaluate(
    async ({ offer, bytes }) => {
      const pc = new RTCPeerConnection({ iceServers: [] });
      const done = new Promise<number>((resolve) => {
        pc.addEventListener('datachannel', ({ channel }) => {
          channel.binaryType = 'arraybuffer';
          let got = 0;
          channel.onmessage = ({ data }: MessageEvent<ArrayBuffer>) => {
            got += data.byteLength;
            if (got >= bytes) resolve(Date.now());
          };
        });
      });
      (window as unknown as { __bench: Bench }).__bench = { pc, done };
      await pc.setRemoteDescription(offer);
      await pc.setLocalDescription();
      await new Promise<void>((resolve) => {
        if (pc.iceGatheringState === 'complete') return resolve();
        pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
      });
      return pc.localDescription!.toJSON() as RTCSessionDescriptionInit;
    },
    { offer, bytes },
  );
  await a.evaluate(async (answer) => {
    const { pc, channel } = (window as unknown as { __bench: Bench }).__bench;
    await pc.setRemoteDescription(answer);
    if (channel!.readyState !== 'open') {
      await new Promise((resolve) => channel!.addEventListener('open', resolve, { once: true }));
    }
  }, answer);

  const received = b.evaluate(() => (window as unknown as { __bench: Bench }).__bench.done!);
  const started = await a.evaluate(
    async ({ bytes, frameBytes, highWater }) => {
      const channel = (window as unknown as { __bench: Bench }).__bench.channel!;
      channel.bufferedAmountLowThreshold = frameBytes;
      const frame = new Uint8Array(frameBytes);
      for (let i = 0; i < frame.length; i += 4096) frame[i] = i >> 12;
      const started = Date.now();
      for (let sent = 0; sent < bytes;) {
        while (channel.bufferedAmount > highWater) {
          await new Promise((resolve) => channel.addEventListener('bufferedamountlow', resolve, { once: true }));
        }
        const size = Math.min(frameBytes, bytes - sent);
        channel.send(size === frameBytes ? frame : frame.subarray(0, size));
        sent += size;
      }
      return started;
    },
    { bytes, frameBytes: FRAME, highWater: HIGH_WATER },
  );
  const ended = await received;
  for (const page of [a, b]) {
    await page.evaluate(() => (window as unknown as { __bench: Bench }).__bench.pc.close());
  }
  return { ms: ended - started, loadBefore, loadAfter: load() };
}

// ── The receiver's own work per chunk, alone ────────────────────────────────────────────────────────────────────

/** SHA-256 of `chunks` 1 MiB chunks, then the same chunks written through one OPFS writable: ms for each. */
function chunkWork(chunks: number): Promise<{ hashMs: number; writeMs: number }> {
  return (async () => {
    const chunk = new Uint8Array(1024 * 1024);
    for (let i = 0; i < chunk.length; i += 4096) chunk[i] = i >> 12;
    let started = performance.now();
    for (let i = 0; i < chunks; i++) await crypto.subtle.digest('SHA-256', chunk);
    const hashMs = performance.now() - started;
    const root = await navigator.storage.getDirectory();
    const handle = await root.getFileHandle('bench-scratch.bin', { create: true });
    started = performance.now();
    const writable = await handle.createWritable();
    for (let i = 0; i < chunks; i++) await writable.write({ type: 'write', position: i * chunk.length, data: chunk });
    await writable.close();
    const writeMs = performance.now() - started;
    await root.removeEntry('bench-scratch.bin');
    return { hashMs, writeMs };
  })();
}

// ── The run ──────────────────────────────────────────────────────────────────────────────────────────────────────

const films = await startFilmServer();
const { browser, origin } = films;
const contexts: BrowserContext[] = [];
try {
  const loadAtStart = loadavg();
  console.log(
    `hotspot bench: two Chromium contexts (${browser.version()}, headless) on this machine's loopback, ` +
      `${cpus().length} CPU(s), load ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}; ` +
      `film ${FILM_MIB} MiB, ${RUNS} run(s) of each`,
  );
  const { id: planId } = await createPlan({ global_expiry_date: '2030-12-31T23:59' });
  const title = `Bench Hotspot ${Date.now().toString(36)}`;
  const movie = await addMovie(planId, title, paddedMovie(title, FILM_MIB * MiB));

  const owner = await registerUser();
  await subscribeUser(owner.id, planId);
  const { context: senderPhone, page: sender } = await phoneOf(browser, origin, owner);
  contexts.push(senderPhone);
  await sender.goto(`/movies/${movie.id}`);
  await sender.getByRole('button', { name: 'Download Now' }).click();
  const dialog = sender.getByRole('dialog', { name: /^Download / });
  await dialog.getByRole('radio', { name: /^Original · / }).check();
  await dialog.getByRole('button', { name: 'Download Original' }).click();
  await waitForRecord(sender, movie.id, (r) => isComplete(r) && typeof r.manifest === 'string', 5 * 60_000);
  const held = await opfsSha256(sender, movie.id);

  const friend = await registerUser();
  await subscribeUser(friend.id, planId);
  const { context: receiverPhone, page: receiver } = await phoneOf(browser, origin, friend);
  contexts.push(receiverPhone);

  const plainA = await senderPhone.newPage();
  const plainB = await receiverPhone.newPage();
  for (const page of [plainA, plainB]) await page.evaluate(KEEP_NAMES);

  const app: AppRun[] = [];
  const baseline: BaselineRun[] = [];
  let onReceiver = false;
  for (let i = 0; i < RUNS; i++) {
    for (const kind of i % 2 ? (['baseline', 'app'] as const) : (['app', 'baseline'] as const)) {
      if (kind === 'baseline') {
        baseline.push(await baselineRun(plainA, plainB, held.size));
        continue;
      }
      if (onReceiver) await deleteOnReceiver(receiver, title);
      app.push(await appRun(sender, receiver, title));
      onReceiver = true;
      const got = await opfsSha256(receiver, movie.id);
      if (got.size !== held.size || got.sha !== held.sha) {
        throw new Error(`run ${i + 1}: the receiver's film is not the sender's (${JSON.stringify({ got, held })})`);
      }
    }
  }
  const work = await receiver.evaluate(chunkWork, FILM_MIB);

  const mb = (held.size / MB).toFixed(1);
  console.log(
    `  ${mb} MB each way; app: last code's Connect → "is on this phone" (byte-exact each run); ` +
      'baseline: bare RTCDataChannel, first send → last byte counted',
  );
  const head =
    `  ${'run'.padEnd(7)}${'app MB/s'.padStart(10)}${'app s'.padStart(8)}${'base MB/s'.padStart(11)}` +
    `${'base s'.padStart(8)}${'app÷base'.padStart(10)}   ${'app: setup / stream MB/s / finish'.padEnd(36)}` +
    'load app, base (before→after)';
  console.log(head);
  const ratios: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const a = app[i]!;
    const b = baseline[i]!;
    const ratio = rate(held.size, a.ms) / rate(held.size, b.ms);
    ratios.push(ratio);
    const phases =
      `${(a.setupMs / 1000).toFixed(2)} s / ${rate(held.size - MiB, a.streamMs).toFixed(1)} / ` +
      `${(a.finishMs / 1000).toFixed(2)} s`;
    console.log(
      `  ${`${i + 1}${i % 2 ? ' b→a' : ' a→b'}`.padEnd(7)}${rate(held.size, a.ms).toFixed(1).padStart(10)}` +
        `${(a.ms / 1000).toFixed(2).padStart(8)}${rate(held.size, b.ms).toFixed(1).padStart(11)}` +
        `${(b.ms / 1000).toFixed(2).padStart(8)}${ratio.toFixed(2).padStart(10)}   ${phases.padEnd(36)}` +
        `${a.loadBefore.toFixed(2)}→${a.loadAfter.toFixed(2)}, ${b.loadBefore.toFixed(2)}→${b.loadAfter.toFixed(2)}`,
    );
  }
  const appMedian = median(app.map((a) => rate(held.size, a.ms)));
  const baseMedian = median(baseline.map((b) => rate(held.size, b.ms)));
  const phases =
    `${(median(app.map((a) => a.setupMs)) / 1000).toFixed(2)} s / ` +
    `${median(app.map((a) => rate(held.size - MiB, a.streamMs))).toFixed(1)} / ` +
    `${(median(app.map((a) => a.finishMs)) / 1000).toFixed(2)} s`;
  console.log(
    `  ${'median'.padEnd(7)}${appMedian.toFixed(1).padStart(10)}${(median(app.map((a) => a.ms)) / 1000).toFixed(2).padStart(8)}` +
      `${baseMedian.toFixed(1).padStart(11)}${(median(baseline.map((b) => b.ms)) / 1000).toFixed(2).padStart(8)}` +
      `${median(ratios).toFixed(2).padStart(10)}   ${phases}`,
  );
  console.log(
    `  receiver's per-chunk work alone (its page, ${FILM_MIB} × 1 MiB): SHA-256 ${rate(FILM_MIB * MiB, work.hashMs).toFixed(0)} MB/s, ` +
      `OPFS write ${rate(FILM_MIB * MiB, work.writeMs).toFixed(0)} MB/s; load now ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  console.log(
    `hotspot: two Chromium profiles on loopback move a film at ${appMedian.toFixed(1)} MB/s through the app against ` +
      `${baseMedian.toFixed(1)} MB/s on the bare data channel (app ÷ bare ${median(ratios).toFixed(2)}, median of ` +
      `${RUNS}); on real phones the hotspot itself (802.11n 2.4 GHz, typically 30–70 Mbit/s real, ≈ 4–9 MB/s) is ` +
      'expected to be the limit — not measured here.',
  );
} finally {
  for (const context of contexts) await context.close().catch(() => undefined);
  await films.close();
}
