/**
 * The download manager's figures (not pass/fail), in headless Chromium against the built app with the fault proxy
 * in front (e2e/support/fault-proxy.ts), everything on 127.0.0.1:
 * 1. resume overhead per dropped connection: a 64 MiB movie, 10 drops at random points, no tap in between;
 * 2. throughput of the engine against one plain `fetch()` of the same file through the same proxy, throttled
 *    (32 MiB at 2 MiB/s) and unthrottled (256 MiB over loopback), timed on the proxy's log;
 * 3. the page's JS heap (CDP `Performance.getMetrics`) and the renderer processes' RSS over a 1 GiB download.
 *
 * Each scenario runs in a fresh on-disk Chromium profile (a phone keeps OPFS on flash, not in memory as an
 * incognito context would) that is removed afterwards, with a new subscriber. The server is the built one
 * (`pnpm build` first; `pnpm bench` does), started on a free port with a fresh data dir that is removed at the end.
 *
 * Run: `npx pnpm@10 bench` (the API bench, a build, then this), or `npx pnpm@10 bench:downloads` after a build.
 * BENCH_SEED=<n> repeats the drop points of an earlier run.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, useServer } from '../support/browser.ts';
import {
  isComplete,
  movieBytes,
  movieStream,
  opfsSha256,
  plainFetch,
  readRecord,
  sha256,
  signInSubscriber,
  tapDownload,
  waitForRecord,
} from '../support/downloads.ts';
import { FaultProxy, type FileRequestLog } from '../support/fault-proxy.ts';
import { createPlan, type StreamedBytes, uploadMovie } from '../support/seed.ts';
import { startBuiltServer } from '../support/server.ts';

const MiB = 1024 * 1024;
const MB = 1_000_000;
const DROPS = 10;
const RESUME_FILE = 64 * MiB;
const HEAP_FILE = 1024 * MiB;
/** Server data dir and OPFS each hold every movie once (64 + 32 + 256 + 1024 MiB), plus room to spare. */
const DISK_NEEDED = 4 * 1024 * MiB;

const seed = Number(process.env.BENCH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const random = mulberry32(seed);

function mulberry32(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(2)} MiB`;
const kib = (bytes: number) =>
  Math.abs(bytes) < 10_240 ? `${Math.round(bytes)} B` : `${(bytes / 1024).toFixed(0)} KiB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rate = (bytes: number, ms: number) => (bytes / MB / (ms / 1000)).toFixed(1);

function stats(values: number[]): { min: number; median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted.at(-1)! };
}

/** First request's start to last body's end, and the part of it with no file request in flight. */
function span(log: FileRequestLog[]): { total: number; idle: number } {
  const total = log.at(-1)!.endedAt - log[0]!.startedAt;
  const busy = log.reduce((sum, entry) => sum + (entry.endedAt - entry.startedAt), 0);
  return { total, idle: Math.max(0, total - busy) };
}

const rangeStart = (entry: FileRequestLog) => Number(/^bytes=(\d+)-/.exec(entry.range ?? '')?.[1] ?? 0);

/**
 * Resident memory of the Chromium renderer processes this script started (descendants of this process whose
 * command line has `--type=renderer`), from /proc (Linux). Approximate: RSS counts shared pages in each process,
 * and which renderer is the page's is not known here (a page with its dedicated worker, the service worker, a spare
 * renderer…): the largest and the sum are reported.
 */
function rendererRss(): { processes: number; totalBytes: number; largestBytes: number } | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const children = new Map<number, number[]>();
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* gone meanwhile */
    }
  }
  const descendants: number[] = [];
  const queue = [process.pid];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      descendants.push(child);
      queue.push(child);
    }
  }
  let processes = 0;
  let totalBytes = 0;
  let largestBytes = 0;
  for (const pid of descendants) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const kB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      processes += 1;
      totalBytes += kB * 1024;
      largestBytes = Math.max(largestBytes, kB * 1024);
    } catch {
      /* gone meanwhile */
    }
  }
  return { processes, totalBytes, largestBytes };
}

const server = await startBuiltServer();
useServer(server);
const proxy = new FaultProxy({ upstream: server.baseURL });
const origin = await proxy.listen();
const profiles: string[] = [];

/** A fresh on-disk profile with a new subscriber signed in, loading everything through the proxy. */
async function phone(planId: string): Promise<{ context: BrowserContext; page: Page; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'filamu-bench-profile-'));
  profiles.push(dir);
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    baseURL: origin,
    viewport: { width: 390, height: 844 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await signInSubscriber(page, planId);
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function movie(planId: string, bytes: Buffer | StreamedBytes, label: string): Promise<string> {
  const title = `Bench ${label} ${Date.now().toString(36)}`;
  return (await uploadMovie(bytes, { title, category: 'Kinayuganda', planIds: [planId] })).id;
}

async function benchResume(planId: string): Promise<void> {
  const bytes = movieBytes(RESUME_FILE);
  const id = await movie(planId, bytes, 'resume');
  const { page, close } = await phone(planId);
  try {
    proxy.reset();
    // Every cut lands before the end: 10 × at most 5.5 MiB of a 64 MiB file.
    for (let i = 0; i < DROPS; i++) proxy.faults.push({ dropAfter: Math.round((0.5 + random() * 5) * MiB) });
    await tapDownload(page, id);
    // The engine's back-off between failures in a row is at most 1 + 2 + … + 32 + 4 × 60 s ≈ 5 min for 10 drops.
    const record = await waitForRecord(page, id, isComplete, 6 * 60_000);
    const file = await opfsSha256(page, id);
    if (file.size !== bytes.length || file.sha !== sha256(bytes)) {
      throw new Error(`resume: the file on the phone is not the movie (${JSON.stringify(file)})`);
    }
    const log = [...proxy.log];
    const drops = log.filter((entry) => entry.dropped).length;
    if (drops !== DROPS) throw new Error(`resume: expected ${DROPS} drops, the proxy cut ${drops}`);
    const sent = proxy.bytesServed();
    // Per drop, what the proxy sent past the point the next request resumed from: bytes lost in flight when the
    // connection died plus any the phone had received but not kept.
    const beyond = log.slice(0, -1).map((entry, i) => rangeStart(entry) + entry.bytesSent - rangeStart(log[i + 1]!));
    const b = stats(beyond);
    const time = span(log);
    const waits = log.slice(1).map((entry, i) => entry.startedAt - log[i]!.endedAt);
    console.log(
      `downloads: resume, ${mib(bytes.length)} with ${DROPS} drops at random points (seed ${seed}), ` +
        `${log.length} requests, byte-exact, no tap in between`,
    );
    console.log(
      `  phone received (bytesFromNetwork) − size: ${kib(record.bytesFromNetwork - bytes.length)} in all, ` +
        `${kib((record.bytesFromNetwork - bytes.length) / DROPS)} per interruption`,
    );
    console.log(
      `  proxy sent − size: ${kib(sent - bytes.length)} in all, ${kib((sent - bytes.length) / DROPS)} per interruption ` +
        `(per drop past the resume point: min ${kib(b.min)}, median ${kib(b.median)}, max ${kib(b.max)})`,
    );
    console.log(
      `  total ${seconds(time.total)} (first request → last byte), of which ${seconds(time.idle)} with no request ` +
        `in flight; wait before each resume: ${waits.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s`,
    );
  } finally {
    await close();
  }
}

async function benchThroughput(
  planId: string,
  label: string,
  bytes: Buffer | StreamedBytes,
  throttleBps: number | null,
): Promise<void> {
  const size = Buffer.isBuffer(bytes) ? bytes.length : bytes.size;
  // Two movies of the same bytes: a plain fetch of the whole file is a delivery (decision 0191), so the baseline
  // fetches its own twin and the engine downloads the other.
  const twin = await movie(planId, bytes, `${label} (plain fetch)`);
  const id = await movie(planId, bytes, label);
  const { page, close } = await phone(planId);
  try {
    proxy.reset();
    proxy.throttleBps = throttleBps;
    const received = await plainFetch(page, twin, { discard: size > 64 * MiB });
    if (received !== size) throw new Error(`${label}: plain fetch read ${received} of ${size} bytes`);
    const plain = span(proxy.log.slice(0, 1));
    await tapDownload(page, id);
    await waitForRecord(page, id, isComplete, 4 * 60_000);
    const engineLog = proxy.log.slice(1);
    const engine = span(engineLog);
    const engineSent = engineLog.reduce((sum, entry) => sum + entry.bytesSent, 0);
    const plainRate = size / plain.total;
    const engineRate = size / engine.total;
    console.log(
      `downloads: ${label}, ${mib(size)}: plain fetch ${rate(size, plain.total)} MB/s (${seconds(plain.total)}), ` +
        `engine ${rate(size, engine.total)} MB/s (${seconds(engine.total)}, ${engineLog.length} request(s), ` +
        `${mib(engineSent)} sent); engine/plain ${(engineRate / plainRate).toFixed(2)}×`,
    );
  } finally {
    proxy.throttleBps = null;
    await close();
  }
}

async function benchHeap(planId: string): Promise<void> {
  const uploadStarted = Date.now();
  const id = await movie(planId, movieStream(HEAP_FILE), 'heap');
  const uploadMs = Date.now() - uploadStarted;
  const { context, page, close } = await phone(planId);
  try {
    proxy.reset();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const heap: number[] = [];
    const rss: number[] = [];
    const largest: number[] = [];
    let renderers = 0;
    await tapDownload(page, id);
    const deadline = Date.now() + 4 * 60_000;
    let nextCheck = 0;
    for (;;) {
      const { metrics } = await cdp.send('Performance.getMetrics');
      heap.push(metrics.find((m) => m.name === 'JSHeapUsedSize')!.value);
      const memory = rendererRss();
      if (memory) {
        rss.push(memory.totalBytes);
        largest.push(memory.largestBytes);
        renderers = Math.max(renderers, memory.processes);
      }
      if (Date.now() >= nextCheck) {
        nextCheck = Date.now() + 1000;
        const record = await readRecord(page, id);
        if (record && isComplete(record)) break;
        if (Date.now() > deadline)
          throw new Error(`heap: the 1 GiB download did not finish: ${JSON.stringify(record)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const onDisk = await page.evaluate(async (movieId) => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('downloads');
      for await (const [name, handle] of dir as unknown as AsyncIterable<[string, FileSystemFileHandle]>) {
        if (name.includes(movieId)) return (await handle.getFile()).size;
      }
      return -1;
    }, id);
    if (onDisk !== HEAP_FILE) throw new Error(`heap: OPFS holds ${onDisk} bytes of ${HEAP_FILE}`);
    const time = span(proxy.log);
    const h = stats(heap);
    console.log(
      `downloads: 1 GiB download (uploaded by a streamed PUT in ${seconds(uploadMs)}): ${seconds(time.total)}, ` +
        `${rate(HEAP_FILE, time.total)} MB/s, ${proxy.log.length} request(s)`,
    );
    console.log(
      `  page JSHeapUsedSize over ${heap.length} samples (every 250 ms): min ${mib(h.min)}, median ${mib(h.median)}, max ${mib(h.max)}`,
    );
    if (rss.length) {
      const one = stats(largest);
      const all = stats(rss);
      console.log(
        `  renderer RSS, approximate (VmRSS counts shared pages in every process): largest renderer (presumably ` +
          `the page's, which its download worker shares) min ${mib(one.min)}, median ${mib(one.median)}, max ${mib(one.max)}; ` +
          `all ${renderers} renderers summed min ${mib(all.min)}, median ${mib(all.median)}, max ${mib(all.max)}`,
      );
    } else {
      console.log('  renderer RSS: not available (no /proc)');
    }
  } finally {
    await close();
  }
}

try {
  const { bavail, bsize } = statfsSync(tmpdir());
  if (bavail * bsize < DISK_NEEDED) {
    throw new Error(
      `The download bench needs ${mib(DISK_NEEDED)} free in ${tmpdir()}; there are ${mib(bavail * bsize)}.`,
    );
  }
  console.log(
    `downloads bench: Chromium ${CHROMIUM_PATH} against the built app on 127.0.0.1 through the fault proxy; ` +
      `${cpus().length} CPU(s), load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  const started = Date.now();
  const planId = (await createPlan()).id;
  await benchResume(planId);
  await benchThroughput(planId, 'throttled 2 MiB/s', movieBytes(32 * MiB), 2 * MiB);
  await benchThroughput(planId, 'unthrottled loopback', movieStream(256 * MiB), null);
  await benchHeap(planId);
  console.log(`downloads bench: done in ${seconds(Date.now() - started)}`);
} finally {
  await proxy.close();
  await server.stop();
  for (const dir of profiles) rmSync(dir, { recursive: true, force: true });
}
