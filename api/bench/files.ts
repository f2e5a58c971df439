// A benchmark, not production code: its scenarios share one nginx and one client.
/**
 * Range serving through the local driver's /files, against nginx on the same file (figures, not pass/fail):
 * - throughput of one 1 GB download over loopback, ours vs nginx (`sendfile on`), same client, several rounds;
 * - 50 concurrent readers of random 1–10 MB ranges for ~10 s: MB/s, requests/s, latency, errors, server RSS.
 *
 * The file server runs in its own process (this file, started with SERVE_FLAG), like nginx does, so the client
 * competes with it for the CPUs the same way in both cases. nginx is installed with apt-get when missing (as
 * scripts/ensure-chromium.mjs does for Chromium); without apt-get the comparison is skipped.
 */
import { type ChildProcess, execFileSync, execSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import pino from 'pino';
import { AppError, errorResponse, handleError } from '../src/http/errors.ts';
import type { AppEnv } from '../src/http/env.ts';
import { requestLogging } from '../src/http/middleware.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLocalStorage, FILES_MOUNT } from '../src/features/storage/local.ts';
import { type FileGrants, newObjectKey } from '../src/features/storage/storage.ts';
import { mergeRanges, type Ranges } from '../src/features/downloads/delivered-ranges.ts';
import { FLUSH_EVERY_BYTES } from '../src/features/downloads/deliveries.ts';
import { percentile } from './measure.ts';

const FILE_BYTES = 1024 ** 3;
const THROUGHPUT_ROUNDS = 5;
const READERS = 50;
const READ_SECONDS = 10;
const MIN_RANGE = 1_000_000;
const MAX_RANGE = 10_000_000;
const MB = 1_000_000;
/** USER_HZ of /proc/<pid>/stat: 100 on Linux everywhere in practice. */
const CLOCK_TICKS_PER_SECOND = 100;

const SERVE_FLAG = '--serve-files';
const NGINX_CANDIDATES = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'];

interface Server {
  name: string;
  /** Base URL plus path (and query) of the 1 GB object. */
  url: string;
  /** Processes whose resident memory is the server's. */
  pids: () => number[];
  stop(): Promise<void>;
}

export async function benchFiles(): Promise<void> {
  const workdir = mkdtempSync(join(tmpdir(), 'filamu-bench-files-'));
  // nginx's worker runs as an unprivileged user: it must be able to walk to the file.
  chmodSync(workdir, 0o755);
  const servers: Server[] = [];
  try {
    const dir = join(workdir, 'objects');
    const key = newObjectKey('movies', 'video/mp4')!;
    const path = join(dir, key);
    console.log(`files: writing a ${FILE_BYTES / 1024 ** 3} GiB object of random bytes…`);
    await writeRandomFile(path, FILE_BYTES);
    chmodSync(dir, 0o755);
    chmodSync(dirname(path), 0o755);
    chmodSync(path, 0o644);

    const secret = randomBytes(32).toString('base64url');
    const { storage } = createLocalStorage({ dir, secret, clock: systemClock, cdnBaseUrl: null, corsOrigins: [] });
    // A grant link, as the app mints them: the server then checks the grant and counts delivered bytes.
    const link = await storage.presignGet(key, { expiresInSeconds: 3600, grant: BENCH_GRANT, holder: BENCH_HOLDER });
    const ours = await startFileServerProcess(dir, secret);
    servers.push({ ...ours, url: `${ours.url}${link}` });
    const nginx = await startNginx(workdir, dir);
    if (nginx) servers.push({ ...nginx, url: `${nginx.url}/${key}` });

    // One warm-up download each: both then read from the page cache, not the disk.
    for (const server of servers) await download(server.url);

    await benchThroughput(servers);
    for (const server of servers) await benchConcurrentReaders(server);
  } finally {
    for (const server of servers) await server.stop();
    await rm(workdir, { recursive: true, force: true });
  }
}

async function benchThroughput(servers: Server[]): Promise<void> {
  const samples = new Map<string, number[]>(servers.map((server) => [server.name, []]));
  const cpuSeconds = new Map<string, number>(servers.map((server) => [server.name, 0]));
  // Interleaved rounds, so a noisy neighbour hurts both the same way.
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    for (const server of servers) {
      const cpuBefore = cpuTimeSeconds(server.pids());
      samples.get(server.name)!.push(await download(server.url));
      cpuSeconds.set(server.name, cpuSeconds.get(server.name)! + cpuTimeSeconds(server.pids()) - cpuBefore);
    }
  }
  const client = hasCurl() ? 'curl' : 'Node http client';
  const medians = new Map<string, number>();
  for (const [name, values] of samples) {
    const sorted = [...values].sort((a, b) => a - b);
    const median = percentile(sorted, 50);
    medians.set(name, median);
    // CPU per GiB is steadier than MB/s on a shared machine: it is what the server itself spends.
    const cpuPerGiB = cpuSeconds.get(name)! / THROUGHPUT_ROUNDS;
    console.log(
      `files: 1 GiB download over loopback from ${name} (${client}): median ${median.toFixed(0)} MB/s, ` +
        `best ${sorted.at(-1)!.toFixed(0)} MB/s, runs ${values.map((v) => v.toFixed(0)).join(' / ')}; ` +
        `server CPU ${cpuPerGiB.toFixed(2)} s per GiB`,
    );
  }
  const ours = medians.get('filamu /files');
  const nginx = medians.get('nginx');
  if (ours !== undefined && nginx !== undefined) {
    console.log(`files: throughput ratio filamu / nginx = ${(ours / nginx).toFixed(2)} (median vs median)`);
  } else {
    console.log('files: nginx comparison skipped (nginx unavailable)');
  }
}

/** MB/s of one whole download: curl when available (a C client that is never the bottleneck), else Node. */
async function download(url: string): Promise<number> {
  if (hasCurl()) {
    const output = execFileSync('curl', [
      '-s',
      '-f',
      '-o',
      '/dev/null',
      '-w',
      '%{speed_download} %{size_download}',
      url,
    ]);
    const [speed, size] = output.toString().trim().split(' ').map(Number);
    if (size !== FILE_BYTES) throw new Error(`curl downloaded ${size} bytes instead of ${FILE_BYTES}`);
    return speed! / MB;
  }
  const started = performance.now();
  const { bytes } = await get(url, {}, new Agent());
  if (bytes !== FILE_BYTES) throw new Error(`downloaded ${bytes} bytes instead of ${FILE_BYTES}`);
  return bytes / MB / ((performance.now() - started) / 1000);
}

async function benchConcurrentReaders(server: Server): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: READERS });
  const latencies: number[] = [];
  let bytes = 0;
  let errors = 0;
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, residentBytes(server.pids()))), 200);
  const started = performance.now();
  const deadline = started + READ_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: READERS }, async () => {
      while (performance.now() < deadline) {
        const length = MIN_RANGE + Math.floor(Math.random() * (MAX_RANGE - MIN_RANGE + 1));
        const start = Math.floor(Math.random() * (FILE_BYTES - length));
        const end = start + length - 1;
        const begun = performance.now();
        try {
          const res = await get(server.url, { Range: `bytes=${start}-${end}` }, agent);
          const expectedRange = `bytes ${start}-${end}/${FILE_BYTES}`;
          if (res.status !== 206 || res.contentRange !== expectedRange || res.bytes !== length) errors += 1;
          bytes += res.bytes;
          latencies.push(performance.now() - begun);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const latency = (p: number) => (latencies.length === 0 ? 'n/a' : `${percentile(latencies, p).toFixed(0)} ms`);
  console.log(
    `files: ${READERS} concurrent readers of random 1–10 MB ranges on ${server.name}, ${seconds.toFixed(1)} s: ` +
      `${(bytes / MB / seconds).toFixed(0)} MB/s, ${(latencies.length / seconds).toFixed(0)} req/s, ` +
      `p50 ${latency(50)}, p99 ${latency(99)}, ` +
      `errors ${errors}, server RSS peak ${(peakRss / 1024 ** 2).toFixed(0)} MiB`,
  );
}

/** One GET whose body is counted and discarded. */
function get(
  url: string,
  headers: Record<string, string>,
  agent: Agent,
): Promise<{ status: number; contentRange: string | undefined; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentRange: res.headers['content-range'], bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Streams random bytes to disk (never the whole gigabyte in memory). */
async function writeRandomFile(path: string, size: number): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const out = createWriteStream(path);
  const chunk = 4 * 1024 * 1024;
  for (let written = 0; written < size; written += chunk) {
    if (!out.write(randomBytes(Math.min(chunk, size - written)))) {
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** Starts this file as the /files server in its own process (see serveFilesForBench). */
async function startFileServerProcess(dir: string, secret: string): Promise<Server> {
  const apiDir = dirname(dirname(fileURLToPath(import.meta.url)));
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), SERVE_FLAG], {
    cwd: apiDir,
    env: { ...process.env, FILAMU_BENCH_DIR: dir, FILAMU_BENCH_SECRET: secret },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the file server exited early (${code})`)));
  });
  return {
    name: 'filamu /files',
    url: `http://127.0.0.1:${port}`,
    pids: () => (child.pid ? [child.pid] : []),
    stop: () => stopProcess(child),
  };
}

/** The child side: the local driver's file server behind the app's request id, logging and error handler. */
async function serveFilesForBench(): Promise<void> {
  const dir = process.env.FILAMU_BENCH_DIR!;
  const secret = process.env.FILAMU_BENCH_SECRET!;
  const { fileServer } = createLocalStorage({
    dir,
    secret,
    clock: systemClock,
    cdnBaseUrl: null,
    corsOrigins: [],
    grants: benchGrants(),
  });
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.use(requestId({ headerName: 'X-Request-Id' }));
  app.use(requestLogging(pino({ level: 'info' }, pino.destination('/dev/null'))));
  app.route(FILES_MOUNT, fileServer);
  app.notFound((c) => errorResponse(c, new AppError('not_found', 'Not found.')));
  serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
    process.stdout.write(`listening on ${info.port}\n`);
  });
}

const BENCH_GRANT = '00000000-0000-4000-8000-00000000b001';
const BENCH_HOLDER = '00000000-0000-4000-8000-00000000b002.bench';

/**
 * The app's grant hooks without a database: a verdict cached per link, as the app's LinkChecks answers all but one
 * request every few seconds, and delivered intervals merged per response as Deliveries does before its (coalesced,
 * every 16 MiB) write. What is measured is what the hooks add to every request and chunk.
 */
function benchGrants(): FileGrants {
  const verdicts = new Map<string, Promise<boolean>>();
  let delivered: Ranges = [];
  return {
    allows(link) {
      const cacheKey = `${link.grant} ${link.holder} ${link.key}`;
      let verdict = verdicts.get(cacheKey);
      if (!verdict) verdicts.set(cacheKey, (verdict = Promise.resolve(link.grant === BENCH_GRANT)));
      return verdict;
    },
    track(_grant, start, end) {
      let written = start;
      let seen = start;
      const push = () => {
        if (seen > written) delivered = mergeRanges(delivered, [[start, seen]], Number.MAX_SAFE_INTEGER);
        written = seen;
      };
      return {
        reached(sentEnd) {
          seen = sentEnd;
          if (sentEnd > end || sentEnd - written >= FLUSH_EVERY_BYTES) push();
        },
        closed: push,
      };
    },
  };
}

/** nginx on a free loopback port with its own config, pid and logs in `workdir`; null when there is none. */
async function startNginx(workdir: string, root: string): Promise<Server | null> {
  const binary = ensureNginx();
  if (!binary) return null;
  const port = await freePort();
  const home = join(workdir, 'nginx');
  mkdirSync(home, { recursive: true });
  const config = join(home, 'nginx.conf');
  writeFileSync(
    config,
    `daemon off;
worker_processes 1;
pid ${home}/nginx.pid;
error_log ${home}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  client_body_temp_path ${home}/body;
  proxy_temp_path ${home}/proxy;
  fastcgi_temp_path ${home}/fastcgi;
  uwsgi_temp_path ${home}/uwsgi;
  scgi_temp_path ${home}/scgi;
  types { video/mp4 mp4; }
  server {
    listen 127.0.0.1:${port};
    root ${root};
  }
}
`,
  );
  const child = spawn(binary, ['-c', config, '-p', home, '-e', join(home, 'error.log')], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await get(`${url}/`, {}, new Agent());
      break;
    } catch (error) {
      if (attempt > 50 || child.exitCode !== null) {
        await stopProcess(child);
        console.log(`files: nginx did not start (${String(error)}); comparison skipped`);
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    name: 'nginx',
    url,
    pids: () => nginxPids(child.pid),
    stop: () => stopProcess(child),
  };
}

/** Finds nginx, installing it with apt-get when missing; null (and why) when that is not possible. */
function ensureNginx(): string | null {
  const installed = () => NGINX_CANDIDATES.find((candidate) => existsSync(candidate)) ?? null;
  if (installed()) return installed();
  if (!commandExists('apt-get')) {
    console.log('files: nginx is missing and apt-get is unavailable; the nginx comparison is skipped.');
    return null;
  }
  for (const packageName of ['nginx-light', 'nginx']) {
    console.log(`files: nginx is missing; running apt-get update && apt-get install -y ${packageName}`);
    try {
      execSync(`apt-get update && apt-get install -y ${packageName}`, {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    } catch (error) {
      console.log(`files: installing ${packageName} failed:`, error instanceof Error ? error.message : error);
    }
    if (installed()) return installed();
  }
  console.log('files: nginx could not be installed; the nginx comparison is skipped.');
  return null;
}

function nginxPids(master: number | undefined): number[] {
  if (master === undefined) return [];
  try {
    const children = execFileSync('pgrep', ['-P', String(master)])
      .toString()
      .trim()
      .split('\n')
      .map(Number);
    return [master, ...children.filter((pid) => pid > 0)];
  } catch {
    return [master];
  }
}

/** Resident set size of processes, from /proc (Linux); 0 where unavailable. */
function residentBytes(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kib = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
      total += kib ? Number(kib) * 1024 : 0;
    } catch {
      // The process is gone or /proc is missing.
    }
  }
  return total;
}

/** User + system CPU seconds of processes, from /proc (Linux); 0 where unavailable. */
function cpuTimeSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process is gone or /proc is missing.
    }
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    // Both stop at once on SIGTERM (nginx: fast shutdown; nothing is in flight by then).
    child.kill('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

let curlPresent: boolean | undefined;
function hasCurl(): boolean {
  curlPresent ??= commandExists('curl');
  return curlPresent;
}

function commandExists(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

if (process.argv.includes(SERVE_FLAG) && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await serveFilesForBench();
}
