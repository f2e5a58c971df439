/**
 * The `npx pnpm@10 demo` command: seeds the server at DEMO_URL / PUBLIC_URL / 127.0.0.1:PORT, starting the
 * built server first (and keeping it in the foreground) when nothing answers there. The seeding itself is
 * `seedDemo` in seed.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatUgx } from '@filamu/shared';
import type { DemoPlanName } from './catalogue.ts';
import { DemoStepError } from './client.ts';
import { type DemoSummary, seedDemo } from './seed.ts';

/** The repository root: relative paths (DATA_DIR, the built server) resolve from here, as for `pnpm serve`. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER_ENTRY = join(REPO_ROOT, 'api/dist/server.js');
const SERVER_START_TIMEOUT_MS = 60_000;

/** A problem the person running the command can fix; printed without a stack trace. */
class CliError extends Error {}

const nonEmpty = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : undefined);

async function main(): Promise<void> {
  process.chdir(REPO_ROOT);
  const env = process.env;
  const url = (nonEmpty(env.DEMO_URL) ?? nonEmpty(env.PUBLIC_URL) ?? `http://127.0.0.1:${env.PORT ?? 8080}`).replace(
    /\/+$/,
    '',
  );
  const print = (line = '') => process.stdout.write(`${line}\n`);

  const health = await probeHealth(url);
  if (health !== 'down' && health !== 'ok') throw new CliError(health);
  const server = health === 'down' ? await startServer(url, print) : null;
  try {
    const admin = adminCredentials(env);
    print(`Seeding the demo into ${url} as ${admin.email}`);
    // 720p clips (with ffmpeg here) so the server makes every size; wait a while to show them.
    const summary = await seedDemo({
      baseUrl: url,
      admin,
      log: print,
      media: { ladder: true },
      waitForSizesMs: 180_000,
    });
    printSummary(summary, admin.passwordSource, server !== null, print);
  } catch (error) {
    server?.kill('SIGTERM');
    throw error;
  }
  if (server) keepInForeground(server);
}

type Health = 'ok' | 'down' | string;

/** 'ok', 'down' (nothing listening), or why whatever answered is not a usable Filamu server. */
async function probeHealth(url: string): Promise<Health> {
  try {
    const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5000) });
    if (response.ok) return 'ok';
    return `${url}/api/health answered HTTP ${response.status}: is it a healthy Filamu server? (Set DEMO_URL to seed another one.)`;
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') {
      return `${url} did not answer /api/health within 5 s. (Set DEMO_URL to seed another server.)`;
    }
    return 'down';
  }
}

/** Starts the built server in the foreground of this terminal and waits until it is healthy. */
async function startServer(url: string, print: (line: string) => void): Promise<ChildProcess> {
  if (!existsSync(SERVER_ENTRY)) {
    throw new CliError(`The server is not built (${SERVER_ENTRY} is missing). Run: npx pnpm@10 build`);
  }
  print(`Nothing answers at ${url}: starting the server (node api/dist/server.js)…`);
  // Request logs would drown the seeder's progress; LOG_LEVEL from the environment still wins.
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: { LOG_LEVEL: 'warn', ...process.env },
    stdio: 'inherit',
  });
  let exit: string | null = null;
  child.once('exit', (code, signal) => {
    exit = signal ? `signal ${signal}` : `code ${code}`;
  });
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exit) throw new CliError(`The server stopped (${exit}) before it was ready; see its output above.`);
    if ((await probeHealth(url)) === 'ok') return child;
    await new Promise((done) => setTimeout(done, 250));
  }
  child.kill('SIGTERM');
  throw new CliError(`The server did not answer ${url}/api/health within ${SERVER_START_TIMEOUT_MS / 1000} s.`);
}

/** Ctrl+C and SIGTERM reach the server; this process ends when it does, with its exit code. */
function keepInForeground(server: ChildProcess): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

interface AdminCredentials {
  email: string;
  password: string;
  /** Where the password can be found again, for the summary (the password itself is not printed). */
  passwordSource: string;
}

/** ADMIN_EMAIL/ADMIN_PASSWORD, else the file the server writes at its first start without them. */
function adminCredentials(env: NodeJS.ProcessEnv): AdminCredentials {
  const email = nonEmpty(env.ADMIN_EMAIL);
  const password = env.ADMIN_PASSWORD;
  if (email && password) return { email, password, passwordSource: 'ADMIN_PASSWORD' };
  const file = resolve(nonEmpty(env.DATA_DIR) ?? './data', 'admin-credentials.txt');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const fileEmail = /^email:\s*(\S+)\s*$/m.exec(text)?.[1];
  const filePassword = /^password:\s*(\S+)\s*$/m.exec(text)?.[1];
  if (!fileEmail || !filePassword) {
    // The server writes the file only when it starts without ADMIN_EMAIL; with it, only the operator knows the password.
    throw new CliError(
      `No admin to sign in as: ${file} does not exist, so the server at this address was started with ADMIN_EMAIL ` +
        `and ADMIN_PASSWORD (or with another DATA_DIR). Run the demo with the same two:\n` +
        `  ADMIN_EMAIL=admin@example.com ADMIN_PASSWORD='the password' npx pnpm@10 demo\n` +
        `or set DATA_DIR to the folder the server was started with.`,
    );
  }
  return { email: fileEmail, password: filePassword, passwordSource: file };
}

function printSummary(
  summary: DemoSummary,
  adminPasswordSource: string,
  serverIsOurs: boolean,
  print: (line?: string) => void,
): void {
  const { agent, subscriber, movies } = summary;
  const created = movies.filter((movie) => movie.created).length;
  const inPlan = (name: DemoPlanName) => movies.filter((movie) => movie.plans.includes(name)).length;
  const plans = summary.plans.map((plan) => `${plan.name} ${formatUgx(plan.priceUgx)} (${plan.status})`);
  const agentNote = agent.created ? 'created' : 'already there: password reset, its earlier sessions ended';
  const subscriberNote =
    `${subscriber.created ? 'created' : 'already there'}, ` +
    `${subscriber.plan} ${subscriber.subscribed ? 'activated' : 'already active'}`;

  print();
  print(`Filamu demo is ready: ${summary.url}`);
  print();
  print(`  Admin       ${summary.admin.email}  password: see ${adminPasswordSource}`);
  print(`  Agent       ${agent.email}  password: ${agent.password}  (${agentNote})`);
  print(`  Subscriber  ${subscriber.email}  password: ${subscriber.password}  (${subscriberNote})`);
  print();
  print(`  Plans       ${plans.join(', ')}`);
  print(`  Movies      ${created} created, ${movies.length - created} already there`);
  print(`              Basic has ${inPlan('Basic')} of them, Premium ${inPlan('Premium')}`);
  print();
  print("  Note: signing the admin in here ended the admin's other sessions (one device at a time).");
  print('  Payments sandbox (server without DPO_COMPANY_TOKEN): the last digit of the paying phone decides:');
  print('    1 declined, 2 never paid (expires), 3 cancelled, 4 review (over/underpaid), any other digit paid.');
  if (serverIsOurs) {
    print();
    print(`  The server keeps running at ${summary.url}: press Ctrl+C to stop it.`);
  }
  print();
}

/** Why the command failed, without a stack trace when it is something the person can act on. */
function failureMessage(error: unknown): string {
  if (error instanceof CliError || error instanceof DemoStepError) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

main().catch((error: unknown) => {
  process.stderr.write(`\nDemo seeding failed: ${failureMessage(error)}\n`);
  process.exit(1);
});
