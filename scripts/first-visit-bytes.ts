/**
 * Bytes on the wire for a subscriber's first visit (issue 11): the built app on a fresh data dir, one subscriber
 * and a library of movies with posters seeded through the API, then, in headless Chromium with a fresh profile
 * (empty HTTP cache):
 *
 *   landing  `/` until the network is idle
 *   login    Login link → form → Sign In → the dashboard, until idle
 *   library  the Movies link → the library, scrolled to the end, until idle
 *
 * The visit runs twice. First with service workers blocked: what the screens themselves fetch, per step
 * (requests; KB transferred, headers and bodies as they came over the wire, Chromium's encodedDataLength; how
 * much of that was response headers; KB decoded). Then as a real first visit, the service worker free to install:
 * its precache downloads run in the background beside the steps, and whichever of the page and the worker asks
 * for a chunk first takes it from the network while the other then finds it in the HTTP cache, so only the totals
 * of that visit are stable: the steps, the worker's own fetches, and both together. Answers from a cache cost no
 * bytes and are counted apart.
 *
 * Build first (`npx pnpm@10 build`), then, from the repository root:
 *
 *   npx pnpm@10 bytes                        (this checkout)
 *   npx pnpm@10 bytes -- --root /work/other  (another checkout's build, e.g. an older commit)
 *   npx pnpm@10 bytes -- --movies 48 --json out.json
 *   npx pnpm@10 bytes -- --locale lg         (a browser that speaks Luganda: the screens in Luganda, decision 0257)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Request } from 'playwright-core';
import { launchBrowser, useServer } from '../e2e/support/browser.ts';
import {
  createPlan,
  mp4Bytes,
  posterPng,
  registerUser,
  subscribeUser,
  uploadMovie,
  type SeededUser,
} from '../e2e/support/seed.ts';
import { startBuiltServer } from '../e2e/support/server.ts';

const USAGE = 'usage: pnpm bytes -- [--root <checkout>] [--movies <n>] [--json <file>] [--locale en|lg]';

interface Options {
  root: string | undefined;
  movies: number;
  json: string | undefined;
  locale: 'en' | 'lg';
}

function parseArgs(argv: string[]): Options {
  // pnpm runs this from api/ but keeps the directory it was started in as INIT_CWD.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const options: Options = { root: process.env.FILAMU_ROOT || undefined, movies: 24, json: undefined, locale: 'en' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      return next;
    };
    if (arg === '--') continue;
    else if (arg === '--root') options.root = resolve(cwd, value());
    else if (arg === '--movies') options.movies = Number(value());
    else if (arg === '--json') options.json = resolve(cwd, value());
    else if (arg === '--locale') options.locale = value() === 'lg' ? 'lg' : 'en';
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unexpected argument ${arg}\n${USAGE}`);
  }
  if (!Number.isInteger(options.movies) || options.movies < 1) throw new Error(`--movies must be a whole number ≥ 1`);
  return options;
}

const STEPS = ['landing', 'login', 'library'] as const;
type Step = (typeof STEPS)[number];
const PRECACHE = 'service worker precache';

interface Transfer {
  row: Step | typeof PRECACHE;
  /** Answered by the HTTP cache or the service worker: nothing crossed the network. */
  cached: boolean;
  url: string;
  status: number;
  encoding: string;
  /** Response headers and body as received (encoded), in bytes. */
  transferred: number;
  /** Of which the response headers. */
  headers: number;
  /** The body after decoding, in bytes. */
  decoded: number;
}

const options = parseArgs(process.argv.slice(2));

/** A screen's words in the language measured, from the message catalogue (shared/src/i18n/catalogue). */
const catalogue = JSON.parse(
  readFileSync(new URL(`../shared/src/i18n/catalogue/${options.locale}/web.json`, import.meta.url), 'utf8'),
) as Record<string, string | { message: string }>;
const text = (id: string) => {
  const entry = catalogue[id];
  return typeof entry === 'string' ? entry : entry!.message;
};
const server = await startBuiltServer(options.root);
useServer(server);
let browser: Browser | null = null;
try {
  const plan = await createPlan({ plan_name: 'Basic', price_ugx: 15000 });
  for (let n = 1; n <= options.movies; n++) {
    const title = `Movie number ${n}`;
    await uploadMovie(mp4Bytes(4096), {
      title,
      category: n % 2 ? 'Kinayuganda' : 'English',
      vj: `VJ ${n % 5}`,
      description: `${title}: a short description, about as long as the ones the admin writes for a real movie.`,
      planIds: [plan.id],
      thumbnail: posterPng(title),
    });
  }
  const subscriber = await registerUser();
  await subscribeUser(subscriber.id, plan.id);

  browser = await launchBrowser();
  const pageOnly = await visit(browser, subscriber, 'block');
  const realVisit = await visit(browser, subscriber, 'allow');
  console.log(`First visit of a subscriber (${options.movies} movies in the library)\n`);
  printTable('Screens only (service worker blocked)', pageOnly, [...STEPS, 'landing → library']);
  printTable('Real first visit (service worker installs)', realVisit, ['landing → library', PRECACHE, 'all']);
  if (options.json) {
    writeFileSync(options.json, `${JSON.stringify({ movies: options.movies, pageOnly, realVisit }, null, 2)}\n`);
  }
} finally {
  await browser?.close();
  await server.stop();
}

/** Landing → login → library in a fresh context; every finished request, measured. */
async function visit(browser: Browser, subscriber: SeededUser, serviceWorkers: 'allow' | 'block'): Promise<Transfer[]> {
  const context = await browser.newContext({
    baseURL: server.baseURL,
    viewport: { width: 390, height: 844 },
    serviceWorkers,
    locale: options.locale,
  });
  // Chosen on the phone too: the seeded account says English, which a phone where nobody chose would take at sign-in.
  if (options.locale === 'lg') await context.addInitScript(() => localStorage.setItem('filamu.language', 'lg'));
  try {
    const page = await context.newPage();
    let step: Step = 'landing';
    const measuring: Promise<Transfer | null>[] = [];
    let recording = true;
    context.on('requestfinished', (request) => {
      if (!recording) return;
      measuring.push(measure(request, request.serviceWorker() ? PRECACHE : step).catch(() => null));
    });
    const idle = () => page.waitForLoadState('networkidle');

    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await idle();

    step = 'login';
    await page
      .getByRole('link', { name: text('nav.login'), exact: true })
      .first()
      .click();
    await page.getByLabel(text('login.identifier')).fill(subscriber.email);
    await page.getByLabel(text('form.password'), { exact: true }).fill(subscriber.password);
    await page.getByRole('button', { name: text('action.signIn'), exact: true }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await idle();

    step = 'library';
    await page
      .getByRole('link', { name: text('nav.movies'), exact: true })
      .first()
      .click();
    await page.waitForURL('**/movies');
    await page.getByText('Movie number 1', { exact: true }).first().waitFor();
    // Scrolled to the end, every poster on the page loads (lazy images would otherwise vary from run to run).
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(() => [...document.images].every((image) => image.complete));
    await idle();

    if (serviceWorkers === 'allow') {
      // The precache must be complete before counting.
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await idle();
    }
    recording = false;
    return (await Promise.all(measuring)).filter((t): t is Transfer => t !== null);
  } finally {
    await context.close();
  }
}

async function measure(request: Request, row: Transfer['row']): Promise<Transfer | null> {
  const response = await request.response();
  if (!response) return null;
  const sizes = await request.sizes();
  const headerBytes = sizes.responseHeadersSize;
  // Chromium's encodedDataLength minus the headers; the encodedDataLength is 0 when served from a cache.
  let bodyBytes = Math.max(0, sizes.responseBodySize);
  // Chromium reports no body bytes for a dedicated worker's script: its Content-Length says what came.
  if (bodyBytes === 0) bodyBytes = Number(await response.headerValue('content-length')) || 0;
  const body = await response.body().catch(() => null);
  return {
    row,
    cached: response.fromServiceWorker() || headerBytes + sizes.responseBodySize <= 0,
    url: new URL(request.url()).pathname,
    status: response.status(),
    encoding: (await response.headerValue('content-encoding')) ?? 'identity',
    transferred: headerBytes + bodyBytes,
    headers: Math.max(0, headerBytes),
    decoded: body?.length ?? 0,
  };
}

type Row = Step | typeof PRECACHE | 'landing → library' | 'all';

function printTable(title: string, transfers: Transfer[], rows: Row[]): void {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const select = (row: Row) =>
    row === 'all'
      ? transfers
      : row === 'landing → library'
        ? transfers.filter((t) => t.row !== PRECACHE)
        : transfers.filter((t) => t.row === row);
  console.log(title);
  const columns = [
    'requests'.padStart(9),
    'cached'.padStart(8),
    'transferred KB'.padStart(16),
    'of it headers'.padStart(15),
    'decoded KB'.padStart(12),
  ];
  console.log(['step'.padEnd(26), ...columns].join(''));
  for (const row of rows) {
    const list = select(row);
    const network = list.filter((t) => !t.cached);
    console.log(
      [
        row.padEnd(26),
        String(network.length).padStart(9),
        String(list.length - network.length).padStart(8),
        kb(network.reduce((sum, t) => sum + t.transferred, 0)).padStart(16),
        kb(network.reduce((sum, t) => sum + t.headers, 0)).padStart(15),
        kb(network.reduce((sum, t) => sum + t.decoded, 0)).padStart(12),
      ].join(''),
    );
  }
  const encodings = new Map<string, number>();
  for (const t of transfers.filter((t) => !t.cached)) encodings.set(t.encoding, (encodings.get(t.encoding) ?? 0) + 1);
  console.log(`content-encoding over the network: ${[...encodings].map(([e, n]) => `${e} ${n}`).join(', ')}\n`);
}
