import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One built server per test worker: worker N (VITEST_POOL_ID) uses `baseURLs[N - 1]`. */
    baseURLs: string[];
    adminEmail: string;
    adminPassword: string;
  }
}

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function waitForHealth(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`Server exited with code ${child.exitCode} before becoming healthy:\n${output()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Server did not answer GET /api/health within ${timeoutMs} ms:\n${output()}`);
}

export interface BuiltServer {
  baseURL: string;
  adminEmail: string;
  adminPassword: string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its data dir. */
  stop(): Promise<void>;
}

/**
 * Most suites save stand-in movie bytes (an `ftyp` box and zeros) that ffprobe rightly refuses, and would spend the two
 * cores encoding: they run without ffmpeg (originals only) and without the film jobs, so a film stays as uploaded and
 * the download manager's byte-for-byte checks compare with the upload (a server without ffmpeg still encrypts:
 * decision 0238). The suites that pass `FFMPEG_PATH` get a server that makes renditions and encrypts every film
 * (download-sizes, small-download, encrypted-download).
 */
const filesAsStored = {
  FFMPEG_PATH: '/nonexistent/ffmpeg',
  FFPROBE_PATH: '/nonexistent/ffprobe',
  TRANSCODE_CONCURRENCY: '0',
};

/**
 * Starts the built app (`node api/dist/server.js`) on a free 127.0.0.1 port with a fresh data dir and a known
 * admin, and waits until `GET /api/health` answers. Used by the e2e global setup, the download bench and the
 * screenshot script. `appRoot` is the checkout whose build to run: this one unless given (the screenshot script
 * passes another worktree's to photograph an older build). `env` adds or overrides environment variables (e.g. a small
 * multipart threshold); the defaults are unchanged without it.
 */
export async function startBuiltServer(
  appRoot: string = root,
  env: Record<string, string> = {},
  adminPassword = `Adm1n-${randomBytes(12).toString('hex')}`,
): Promise<BuiltServer> {
  appRoot = resolve(appRoot);
  const serverJs = join(appRoot, 'api', 'dist', 'server.js');
  if (!existsSync(serverJs)) throw new Error(`${serverJs} not found: run the build first (npx pnpm@10 build).`);
  if (!existsSync(join(appRoot, 'pwa', 'dist', 'index.html'))) {
    throw new Error(`${join(appRoot, 'pwa', 'dist')} not found: run the build first (npx pnpm@10 build).`);
  }

  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'filamu-e2e-'));
  const adminEmail = 'admin@filamu.test';

  let log = '';
  const child = spawn(process.execPath, [serverJs], {
    cwd: appRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // The browser tests run the embedded default with a fresh database every time; CI's DATABASE_URL
      // (for the integration suites) must not leak in, or runs would see each other's rows.
      DATABASE_URL: '',
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: 'warn',
      // A production build on the embedded DPO sandbox, on purpose; it pays ~1 s after the charge instead of 3 s
      // (payments.e2e.ts).
      ALLOW_PAYMENT_SANDBOX: 'true',
      ALLOW_SMS_SIMULATOR: 'true',
      SANDBOX_PAYMENT_DELAY_MS: '1000',
      // Every test signs its people up from 127.0.0.1 against one server: far more than one address registers in
      // an hour in real life. The per-address limit itself is tested in api/src/features/rate-limit (ADR 0061).
      REGISTRATIONS_PER_IP_PER_HOUR: '100000',
      ...(env.FFMPEG_PATH ? {} : filesAsStored),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseURL, child, () => log);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { baseURL, adminEmail, adminPassword, stop };
}

/** How many test files run at once (e2e/vitest.config.ts reads it too); each has a server of its own. */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));

/**
 * Vitest global setup: one built server per worker for the whole run, their addresses and the admin provided to the
 * tests. A file has its server to itself while it runs, as when the files ran one after another: tests that count
 * what the admin sees (analytics, subscribers) never see another file's rows arrive mid-test.
 */
export default async function setup(project: TestProject) {
  const adminPassword = `Adm1n-${randomBytes(12).toString('hex')}`;
  const servers = await Promise.all(
    Array.from({ length: E2E_WORKERS }, () => startBuiltServer(root, {}, adminPassword)),
  );
  project.provide(
    'baseURLs',
    servers.map((server) => server.baseURL),
  );
  project.provide('adminEmail', servers[0]!.adminEmail);
  project.provide('adminPassword', adminPassword);
  return async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
}
