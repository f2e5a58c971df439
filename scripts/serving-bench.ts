/**
 * `npx pnpm@10 bench:serving` (after a build): does an encode slow the people the box is serving? The built server
 * runs on the embedded default with ffmpeg and its default `TRANSCODE_CONCURRENCY` (one job per two cores), and a
 * subscriber load — the library (`/api/users/movies`), the profile and 256 KB range reads of a movie, the requests a phone makes while
 * browsing and downloading — is measured three times for `SERVING_BENCH_SECONDS` (default 20) each:
 *
 *   1. idle: nothing encoding;
 *   2. encoding: a generated 1080p film (`SERVING_BENCH_SOURCE_SECONDS`, default 240) has just been saved and its
 *      renditions are being made — measured twice, while its H.264 Small is encoded (libx264) and then while its
 *      Small (HEVC) is (libx265: slower, with its own thread pool, so the heavier of the two for the box);
 *   3. idle again, after that movie is deleted (which cancels its jobs): the baseline on both sides of the encode,
 *      so a machine that got busier or quieter during the run shows as a difference between 1 and 3.
 *
 * It prints p50/p99 and requests per second per phase and the ratio of each encoding p99 to the idle p99 (the worse of
 * the two idle phases), pair by pair in the same run. The goal is ≤ 1.5×. Figures, not pass/fail: the exit code is 0
 * unless something broke (an error answer, or the encode not running while it was meant to be measured).
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AdminMovie } from '../shared/src/schemas/admin-movies.ts';
import type { RenditionKind } from '../shared/src/schemas/renditions.ts';
import { useServer } from '../e2e/support/browser.ts';
import { apiCall } from '../e2e/support/api.ts';
import {
  adminSession,
  createPlan,
  registerUser,
  subscribeUser,
  uploadMovie,
  type StreamedBytes,
} from '../e2e/support/seed.ts';
import { startBuiltServer } from '../e2e/support/server.ts';

const PHASE_SECONDS = boundedNumber('SERVING_BENCH_SECONDS', 20, 5, 600);
const SOURCE_SECONDS = boundedNumber('SERVING_BENCH_SOURCE_SECONDS', 240, 30, 3600);
/** The served film's length: 1080p at CRF 20 is about 1 MB a second, so a link lasts for hundreds of range reads. */
const SERVED_SECONDS = 20;
/** Subscribers whose downloads the range reads use in turn: each lasts about 3 × 44 MB of 256 KB reads. */
const READERS = 16;
const CONCURRENCY = 8;
const RANGE_BYTES = 256 * 1024;
const GOAL_RATIO = 1.5;
/** The encodes a phase is measured during, one after the other: the ladder's first H.264 rung and its x265 one. */
const ENCODES_MEASURED: RenditionKind[] = ['small', 'small-hevc'];

function boundedNumber(name: string, fallback: number, min: number, max: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < min || value > max) {
    process.stderr.write(`${name} must be between ${min} and ${max}.\n`);
    process.exit(1);
  }
  return value;
}

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${stderr}`))));
  });
}

/** A 1080p film with grain and sound (cached in the temp dir): what an admin uploads, as far as the encoder can tell. */
async function source1080p(seconds: number): Promise<string> {
  const dir = join(tmpdir(), 'filamu-bench-serving');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `source-1080p-${seconds}s.mp4`);
  if (existsSync(path)) return path;
  console.log(`generating a ${seconds} s 1080p source in ${dir} …`);
  const partial = `${path}.partial.mp4`;
  await ffmpeg([
    ...['-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=25:duration=${seconds},noise=c0s=4:c0f=t`],
    ...['-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.1:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', '-c:a', 'aac', '-b:a', '128k', '-shortest'],
    partial,
  ]);
  renameSync(partial, path);
  return path;
}

function streamed(path: string): StreamedBytes {
  return {
    size: statSync(path).size,
    chunks: () => createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Uint8Array>,
  };
}

interface Phase {
  name: string;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * The download link the range reads use. A subscriber's download of a film ends once about three copies of it were
 * sent (decision 0191: the link answers 403, and a new link is refused), and random range reads add up to that fast;
 * so the reads go on with the next of a few subscribers registered beforehand, each with their own link.
 */
interface ServedLink {
  url: string;
  /** A new link, unless the one that answered 403 (`stale`) was already replaced. */
  renew: (stale: string) => Promise<void>;
}

/**
 * `CONCURRENCY` loops of library, profile and range reads for `PHASE_SECONDS`; any answer but 200/206 throws, except
 * a used-up link's 403, which is renewed.
 */
async function measure(
  name: string,
  base: string,
  user: { token: string; deviceId: string },
  link: ServedLink,
  fileSize: number,
): Promise<Phase> {
  const headers = { authorization: `Bearer ${user.token}`, 'x-device-id': user.deviceId };
  const requests = [
    () => fetch(`${base}/api/users/movies`, { headers }),
    () => fetch(`${base}/api/auth/profile`, { headers }),
    () => {
      const start = Math.floor(Math.random() * Math.max(1, fileSize - RANGE_BYTES));
      return fetch(link.url, { headers: { range: `bytes=${start}-${start + RANGE_BYTES - 1}` } });
    },
  ];
  const latencies: number[] = [];
  const started = performance.now();
  const endAt = started + PHASE_SECONDS * 1000;
  let turn = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < endAt) {
        const call = requests[turn++ % requests.length]!;
        const begun = performance.now();
        const response = await call();
        await response.arrayBuffer();
        if (response.status === 403 && response.url.includes('/files/')) await link.renew(response.url);
        else if (response.status !== 200 && response.status !== 206)
          throw new Error(`${name}: ${response.url} answered ${response.status}`);
        latencies.push(performance.now() - begun);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    requests: latencies.length,
    perSecond: Math.round(latencies.length / seconds),
    p50: Number(percentile(latencies, 50).toFixed(1)),
    p99: Number(percentile(latencies, 99).toFixed(1)),
  };
}

async function renditions(movieId: string): Promise<AdminMovie['renditions']> {
  const admin = await adminSession();
  const { movies } = await apiCall<{ movies: AdminMovie[] }>('/admin/movies', admin);
  return movies.find((m) => m.id === movieId)?.renditions ?? [];
}

async function renditionStates(movieId: string): Promise<string[]> {
  return (await renditions(movieId)).map((r) => r.state);
}

const isEncoding = async (movieId: string, kind: RenditionKind) =>
  (await renditions(movieId)).some((r) => r.kind === kind && r.state === 'encoding');

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function main(): Promise<void> {
  const film = await source1080p(SOURCE_SECONDS);
  const servedFilm = await source1080p(SERVED_SECONDS);
  const server = await startBuiltServer(undefined, { FFMPEG_PATH: 'ffmpeg', FFPROBE_PATH: 'ffprobe' });
  useServer(server);
  try {
    const plan = await createPlan();
    // The file the load reads, its renditions finished before anything is measured: large enough that a link serves
    // hundreds of range reads before its copies are used up.
    const served = await uploadMovie(streamed(servedFilm), {
      title: 'Served while encoding',
      category: 'Kinayuganda',
      planIds: [plan.id],
    });
    await until(
      'the served clip’s renditions',
      async () => (await renditionStates(served.id)).every((s) => s !== 'queued' && s !== 'encoding'),
      900_000,
    );
    const user = await registerUser();
    await subscribeUser(user.id, plan.id);
    const readers: Awaited<ReturnType<typeof registerUser>>[] = [];
    for (let i = 0; i < READERS; i++) {
      const reader = await registerUser();
      await subscribeUser(reader.id, plan.id);
      readers.push(reader);
    }
    let renewing: Promise<void> | null = null;
    const link: ServedLink = {
      url: '',
      // Loops that meet the used-up link together wait for one new link rather than each using up a reader.
      renew: async (stale) => {
        if (stale !== link.url) return;
        await (renewing ??= nextReader().finally(() => (renewing = null)));
      },
    };
    async function nextReader(): Promise<void> {
      const reader = readers.shift();
      if (!reader) throw new Error(`all ${READERS} readers used up their copies: raise READERS`);
      const grant = await apiCall<{ downloadUrl: string }>('/users/movies/generate-download-url', {
        method: 'POST',
        token: reader.token,
        deviceId: reader.deviceId,
        body: { movieId: served.id, size: 'original' },
      });
      link.url = new URL(grant.downloadUrl, server.baseURL).toString();
    }
    await link.renew(link.url);

    const phases: Phase[] = [];
    phases.push(await measure('idle', server.baseURL, user, link, served.size));

    const encoded = await uploadMovie(streamed(film), { title: 'Being encoded', category: 'English', vj: 'Studio' });
    for (const kind of ENCODES_MEASURED) {
      await until(`the ${kind} encode to start`, () => isEncoding(encoded.id, kind), 600_000);
      phases.push(await measure(`encoding ${kind}`, server.baseURL, user, link, served.size));
      if (!(await isEncoding(encoded.id, kind))) {
        throw new Error(`the ${kind} encode finished before the phase did: raise the source length`);
      }
    }

    await apiCall(`/admin/movies/${encoded.id}`, { ...(await adminSession()), method: 'DELETE' });
    await new Promise((r) => setTimeout(r, 3000));
    phases.push(await measure('idle again', server.baseURL, user, link, served.size));

    console.table(phases);
    const idleP99 = Math.max(phases[0]!.p99, phases.at(-1)!.p99);
    for (const phase of phases.filter((p) => p.name.startsWith('encoding'))) {
      console.log(
        `p99 while ${phase.name} / idle p99 (the worse idle phase): ${(phase.p99 / idleP99).toFixed(2)}× ` +
          `(goal ≤ ${GOAL_RATIO}×; ${CONCURRENCY} concurrent clients, ${PHASE_SECONDS} s a phase, 1080p source)`,
      );
    }
  } finally {
    await server.stop();
  }
}

await main();
