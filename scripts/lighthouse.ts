/**
 * Lighthouse (mobile defaults: simulated slow 4G, 4× CPU slowdown, Moto G Power screen) on the built app, the way a
 * new visitor meets it: the landing page on a fresh profile, in English (`/`) and in Luganda (`/lg`); then, as a subscriber whose phone has the app installed
 * (signed in, service worker ready, one film downloaded), the library, a movie's page, My Downloads, the player and the
 * profile.
 * Prints the scores, the paint metrics and the landing's JavaScript as transferred, and writes the full reports to
 * `<outDir>` (default `lighthouse-reports/`, git-ignored).
 *
 * With `--assert` (the test line) it fails unless each landing scores accessibility 100 and best practices 100, every
 * subscriber screen accessibility 100, the landing's JavaScript weighs ≤ 130 KB as transferred, and no page's
 * performance falls under the regression floor of 75 (0228, 0240, 0247). The performance target, 95, is printed with
 * every page that misses it on this host but does not fail the line: what decides the last points is the host's speed
 * at that moment, not the page (0247). A page under 95 is judged by the median of up to nine runs (three for the landing).
 * A run on a host slower than the one Lighthouse's 4× CPU slowdown is meant for is measured with the slowdown scaled
 * down, so every run emulates the same phone (0240). Build first (`npx pnpm@10 build`), then
 * `npx pnpm@10 lighthouse [-- --assert]`; `-- --screens=library,player` measures only those screens and `-- --repeat`
 * each nine times.
 *
 * Lighthouse 12 is used because 13 needs Node 22 and the project runs on Node 20 (docs/decisions/0075).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, useServer } from '../e2e/support/browser.ts';
import type { AdminMovie } from '../shared/src/schemas/admin-movies.ts';
import { apiCall } from '../e2e/support/api.ts';
import { confirmSize, isComplete, smallMovie, waitForRecord } from '../e2e/support/downloads.ts';
import {
  adminSession,
  createPlan,
  mp4Bytes,
  posterPng,
  registerUser,
  subscribeUser,
  uploadMovie,
} from '../e2e/support/seed.ts';
import { startBuiltServer } from '../e2e/support/server.ts';

const TARGETS = { performance: 95, accessibility: 100, bestPractices: 100, landingScriptKB: 130 };
/**
 * Under this the line fails: a page this slow is slow on any host this line has run on (the worst median a busy host
 * gave the unchanged build was 78), so a real regression, not the host, put it there (0247).
 */
const PERFORMANCE_FLOOR = 75;
const LANDING_RUNS = 3;
/** A screen whose first run misses the target is judged by the median of this many runs. */
const SCREEN_RUNS = 9;

/**
 * Lighthouse's default 4× CPU slowdown takes a host whose benchmark index is 1500-2000 (its documentation's "high-end
 * desktop") to a mid-tier phone. On a slower or busier host the same 4× emulates a slower phone than that, so the
 * slowdown is scaled by the host's index under 1500, as the documentation advises; a faster host keeps 4×.
 */
const LIGHTHOUSE_SLOWDOWN = 4;
const REFERENCE_HOST_INDEX = 1500;
/** A run whose host index moved this much from the one its slowdown was chosen for is measured again. */
const CALIBRATION_TOLERANCE = 0.2;
const CALIBRATION_RETRIES = 2;

function cpuSlowdownFor(hostIndex: number): number {
  if (!(hostIndex > 0) || hostIndex >= REFERENCE_HOST_INDEX) return LIGHTHOUSE_SLOWDOWN;
  return Math.max(1, Number(((LIGHTHOUSE_SLOWDOWN * hostIndex) / REFERENCE_HOST_INDEX).toFixed(2)));
}

interface Summary {
  page: string;
  /** The CPU slowdown the run was simulated with, and the host's benchmark index it measured. */
  cpuSlowdown: number;
  hostIndex: number;
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptKB: number;
  totalKB: number;
  failing: string[];
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

interface NetworkRequest {
  resourceType?: string;
  transferSize?: number;
}

function summarize(page: string, result: RunnerResult): Summary {
  const { categories, audits } = result.lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => audits[id]?.numericValue ?? NaN;
  const requests = ((audits['network-requests']?.details as { items?: NetworkRequest[] } | undefined)?.items ??
    []) as NetworkRequest[];
  const kb = (items: NetworkRequest[]) => items.reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1024;
  const failing = Object.values(categories)
    .flatMap((category) => category.auditRefs)
    .filter((ref) => ref.weight > 0 && audits[ref.id]?.score !== null && (audits[ref.id]?.score ?? 1) < 1)
    .filter((ref) => ref.group !== 'metrics')
    .map((ref) => ref.id);
  return {
    page,
    cpuSlowdown: result.lhr.configSettings.throttling.cpuSlowdownMultiplier,
    hostIndex: Math.round(result.lhr.environment.benchmarkIndex),
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    fcpMs: Math.round(numeric('first-contentful-paint')),
    lcpMs: Math.round(numeric('largest-contentful-paint')),
    tbtMs: Math.round(numeric('total-blocking-time')),
    cls: Number(numeric('cumulative-layout-shift').toFixed(3)),
    scriptKB: Number(kb(requests.filter((r) => r.resourceType === 'Script')).toFixed(1)),
    totalKB: Number(kb(requests).toFixed(1)),
    failing: [...new Set(failing)],
  };
}

/**
 * Lighthouse's own trace recording sometimes loses the navigation start on a busy 2-core machine (NO_NAVSTART): that
 * says nothing about the page, so such a run is repeated, at most twice; any other runtime error fails at once.
 */
const TRACE_RECORDING_ERRORS = new Set(['NO_NAVSTART', 'NO_TRACING_STARTED', 'NO_DCL']);
const TRACE_RETRIES = 2;

/** The host's benchmark index as the last run measured it: the next run's slowdown is chosen from it. */
let lastHostIndex = REFERENCE_HOST_INDEX;

/**
 * One Lighthouse run with the CPU slowdown chosen for the host as last measured; when the run finds the host's speed
 * moved enough to call for another slowdown, it is measured again with that one.
 */
async function audit(url: string, port: number, flags: Flags): Promise<RunnerResult> {
  for (let attempt = 0; ; attempt++) {
    const cpuSlowdownMultiplier = cpuSlowdownFor(lastHostIndex);
    // Lighthouse merges the flags' settings into its mobile defaults: only the slowdown changes.
    const result = await auditOnce(url, port, { ...flags, throttling: { cpuSlowdownMultiplier } });
    lastHostIndex = result.lhr.environment.benchmarkIndex;
    const wanted = cpuSlowdownFor(lastHostIndex);
    if (Math.abs(wanted - cpuSlowdownMultiplier) <= CALIBRATION_TOLERANCE * cpuSlowdownMultiplier) return result;
    if (attempt >= CALIBRATION_RETRIES) return result;
    console.warn(
      `Host speed moved (benchmark index ${Math.round(lastHostIndex)}): measuring ${url} again at ${wanted}x`,
    );
  }
}

async function auditOnce(url: string, port: number, flags: Flags): Promise<RunnerResult> {
  for (let attempt = 0; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      output: 'html',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      ...flags,
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const error = result.lhr.runtimeError;
    if (!error) return result;
    if (TRACE_RECORDING_ERRORS.has(error.code) && attempt < TRACE_RETRIES) {
      console.warn(`Lighthouse lost its trace on ${url} (${error.code}); running it again`);
      continue;
    }
    throw new Error(`Lighthouse failed on ${url}: ${error.code} ${error.message}`);
  }
}

/** A subscriber with a plan and a few movies to see, signed in on the browser's profile. */
async function signInSubscriber(context: BrowserContext, baseURL: string): Promise<string> {
  const plan = await createPlan();
  const movieIds: string[] = [];
  for (const [i, category] of (['Kinayuganda', 'English', 'Kinayuganda', 'English'] as const).entries()) {
    // The first is a real clip: the phone downloads it, so the player has a film to open.
    const movie = await uploadMovie(i === 0 ? smallMovie('Lighthouse Movie 1') : mp4Bytes(4096), {
      title: `Lighthouse Movie ${i + 1}`,
      category,
      vj: category === 'Kinayuganda' ? 'VJ Junior' : 'Studio',
      planIds: [plan.id],
      thumbnail: posterPng(`Lighthouse Movie ${i + 1}`),
    });
    movieIds.push(movie.id);
  }
  const user = await registerUser();
  await subscribeUser(user.id, plan.id);
  const page = await context.newPage();
  await page.goto(`${baseURL}/terms`);
  await page.evaluate(
    ({ token, deviceId }) => {
      localStorage.setItem('filamu.session', JSON.stringify({ token, kind: 'user' }));
      localStorage.setItem('filamu.deviceId', deviceId);
      // The /lg audit left Luganda chosen on this profile (a link to /lg is a choice, decision 0258): this subscriber
      // reads English, as the steps below do.
      localStorage.setItem('filamu.language', 'en');
    },
    { token: user.token, deviceId: user.deviceId },
  );
  // A subscriber's phone has the app installed (the service worker registers once the first page is idle): the
  // signed-in screens are measured as they open on the phone, not as a first visit.
  // `ready` settles once a worker is active; evaluate awaits it (waitForFunction would take the promise as truthy).
  await page.evaluate(() =>
    Promise.race([
      navigator.serviceWorker.ready.then(() => true),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no service worker after 30 s')), 30_000)),
    ]),
  );
  // Its sizes are encoded first, so no ffmpeg runs while the screens are measured.
  const admin = await adminSession();
  const renditionsSettled = async () => {
    const { movies } = await apiCall<{ movies: AdminMovie[] }>('/admin/movies', admin);
    const renditions = movies.find((m) => m.id === movieIds[0])?.renditions ?? [];
    return renditions.every((r) => r.state !== 'queued' && r.state !== 'encoding');
  };
  for (let waited = 0; !(await renditionsSettled()); waited += 500) {
    if (waited > 120_000) throw new Error('The clip was still being encoded after two minutes');
    await new Promise((settle) => setTimeout(settle, 500));
  }
  await page.goto(`${baseURL}/movies/${movieIds[0]}`);
  await page.getByRole('button', { name: 'Download Now' }).click();
  await confirmSize(page);
  await waitForRecord(page, movieIds[0]!, isComplete);
  await page.close();
  return movieIds[0]!;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  const assert = args.includes('--assert');
  // `--screens=library,player` measures only those subscriber screens; `--repeat` measures each nine times.
  const only = args
    .find((a) => a.startsWith('--screens='))
    ?.slice('--screens='.length)
    .split(',');
  const repeatAll = args.includes('--repeat');
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const outDir = resolve(cwd, args.find((a) => !a.startsWith('--')) ?? 'lighthouse-reports');
  mkdirSync(outDir, { recursive: true });

  const server = await startBuiltServer();
  useServer(server);
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'filamu-lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  try {
    const summaries: Summary[] = [];
    // The landing in each language a first visit may get (decision 0258): `/` in English, `/lg` in Luganda.
    const landings: Array<{ name: string; runs: Summary[] }> = [];
    for (const [name, path] of [
      ['landing', '/'],
      ['landing-lg', '/lg'],
    ] as const) {
      const runs: Summary[] = [];
      for (let run = 1; run <= LANDING_RUNS; run++) {
        const result = await audit(`${server.baseURL}${path}`, port, {});
        writeFileSync(join(outDir, `${name}-${run}.html`), result.report as string);
        runs.push(summarize(`${name} (run ${run})`, result));
      }
      summaries.push(...runs);
      landings.push({ name, runs });
    }

    const movieId = await signInSubscriber(context, server.baseURL);
    // Storage is kept so the session stays and the player finds the film this phone downloaded.
    const screens = [
      ['library', '/movies'],
      ['movie', `/movies/${movieId}`],
      ['downloads', '/downloads'],
      ['player', `/downloads/${movieId}/play`],
      ['profile', '/profile'],
    ].filter(([name]) => !only || only.includes(name!)) as [string, string][];
    const signedIn: Summary[] = [];
    for (const [name, path] of screens) {
      // Measured once; a screen under the performance target is judged by the median of nine runs, stopping as soon
      // as five of them are on one side of it, so one busy moment neither hides a slow screen nor fails the line.
      const runs: Summary[] = [];
      for (let run = 1; run <= SCREEN_RUNS; run++) {
        const result = await audit(`${server.baseURL}${path}`, port, { disableStorageReset: true });
        writeFileSync(join(outDir, run === 1 ? `${name}.html` : `${name}-${run}.html`), result.report as string);
        runs.push(summarize(`${name} (signed in${run > 1 ? `, run ${run}` : ''})`, result));
        if (repeatAll) continue;
        if (runs[0]!.performance >= TARGETS.performance) break;
        const meeting = runs.filter((r) => r.performance >= TARGETS.performance).length;
        const majority = Math.ceil(SCREEN_RUNS / 2);
        if (meeting >= majority || runs.length - meeting >= majority) break;
      }
      summaries.push(...runs);
      const middle = runs.find((r) => r.performance === median(runs.map((x) => x.performance)))!;
      signedIn.push({ ...middle, page: `${name} (signed in)` });
    }

    console.table(summaries.map(({ failing, ...figures }) => ({ ...figures, failing: failing.join(' ') })));
    writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify(summaries, null, 2)}\n`);
    console.log(`Reports in ${outDir}`);

    if (assert) {
      const problems: string[] = [];
      const missed: string[] = [];
      const judge = (figure: number, text: string) => {
        if (figure < PERFORMANCE_FLOOR) problems.push(`${text}: under the floor of ${PERFORMANCE_FLOOR}`);
        else if (figure < TARGETS.performance) missed.push(text);
      };
      for (const { name, runs } of landings) {
        const performance = median(runs.map((s) => s.performance));
        judge(performance, `${name} performance ${performance} (median of ${LANDING_RUNS})`);
      }
      for (const s of signedIn)
        judge(
          s.performance,
          `${s.page}: performance ${s.performance} (median of the runs; TBT ${s.tbtMs} ms, LCP ${s.lcpMs} ms, ` +
            `CPU slowdown ${s.cpuSlowdown}x on a host of index ${s.hostIndex})`,
        );
      if (missed.length > 0)
        console.warn(
          `Performance under the target of ${TARGETS.performance} on this host, over the floor of ${PERFORMANCE_FLOOR}:\n  ` +
            missed.join('\n  '),
        );
      const firstRuns = landings.map(({ runs }) => runs[0]!);
      for (const s of [...firstRuns, ...signedIn]) {
        if (s.accessibility < TARGETS.accessibility)
          problems.push(`${s.page}: accessibility ${s.accessibility} (failing: ${s.failing.join(', ')})`);
      }
      for (const s of firstRuns) {
        if (s.bestPractices < TARGETS.bestPractices)
          problems.push(`${s.page} best practices ${s.bestPractices} (failing: ${s.failing.join(', ')})`);
        if (s.scriptKB > TARGETS.landingScriptKB)
          problems.push(`${s.page} JavaScript ${s.scriptKB} KB transferred > ${TARGETS.landingScriptKB} KB`);
      }
      if (problems.length > 0) {
        console.error(`Lighthouse targets missed:\n  ${problems.join('\n  ')}`);
        process.exitCode = 1;
      } else
        console.log(
          missed.length > 0
            ? `Lighthouse floors met; the performance target of ${TARGETS.performance} was missed on this host (above).`
            : 'Lighthouse targets met.',
        );
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
    await server.stop();
  }
}

await main();
