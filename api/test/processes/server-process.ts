import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Hono } from 'hono';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client.ts';
import { createDpoSandbox, type DpoSandbox } from '../../src/features/payments/dpo/sandbox.ts';
import { listen, type Running } from '../../src/lib/loopback.testing.ts';
import { SANDBOX_MOUNT } from '../../src/features/payments/gateway.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { migrationsDir, repoRoot } from '../../src/lib/paths.ts';
import { ADMIN, freshIp, newUser, readResponse, type RequestOptions, type TestResponse } from '../harness.ts';
import { fakeMp4 } from '../library.ts';

/**
 * Cross-process tests: real server processes (`node --import tsx src/server.ts`, no build needed) on one throwaway
 * Postgres database, one shared objects folder and one DPO sandbox, like replicas behind a load balancer.
 * Postgres only: `describe.skipIf(!processTests)`.
 */
export const processTests = Boolean(process.env.DATABASE_URL);

const apiDir = resolve(repoRoot, 'api');
const START_LIMIT_MS = 60_000;

/** What the replicas share: the database, DATA_DIR (objects under DATA_DIR/objects) and the payment gateway. */
export interface Cluster {
  databaseUrl: string;
  dataDir: string;
  /** The test's own connection to the cluster's database, for checking rows (never migrates). */
  database: Database;
  sandbox: DpoSandbox;
  /** verifyToken calls the sandbox received, per DPO token. */
  verifies: Map<string, number>;
  /** The environment every replica starts with. */
  env: Record<string, string>;
  replicas: Replica[];
  close(): Promise<void>;
}

export async function createCluster(): Promise<Cluster> {
  const serverUrl = process.env.DATABASE_URL!;
  const name = `filamu_proc_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl, poolSize: 4, migrationsDir });
  const dataDir = mkdtempSync(join(tmpdir(), 'filamu-proc-'));

  // One gateway for every replica, as in production; it pays at once and never pushes (replicas must ask). Its
  // table lives in the replicas' database, first touched only after they have migrated it.
  const sandbox = createDpoSandbox({ clock: systemClock, database, paymentDelayMs: 0, settleIntervalMs: 0 });
  const verifies = new Map<string, number>();
  const gateway = new Hono();
  gateway.use(async (c, next) => {
    const body = await c.req.raw.clone().text();
    const token = /<Request>verifyToken<\/Request>[\s\S]*<TransactionToken>([^<]+)</.exec(body)?.[1];
    if (token) verifies.set(token, (verifies.get(token) ?? 0) + 1);
    await next();
  });
  gateway.route(SANDBOX_MOUNT, sandbox.app);
  const running: Running = await listen(gateway);

  const cluster: Cluster = {
    databaseUrl,
    dataDir,
    database,
    sandbox,
    verifies,
    replicas: [],
    env: {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '8',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'true',
      DPO_COMPANY_TOKEN: sandbox.companyToken,
      DPO_SERVICE_TYPE: '5525',
      DPO_NOTIFY_SECRET: 'process-notify-secret-0123',
      DPO_API_URL: `${running.url}${SANDBOX_MOUNT}/`,
      PAYMENT_RECONCILE_INTERVAL_MS: '0',
      STALE_DOWNLOAD_SWEEP_INTERVAL_MS: '0',
      // No ffmpeg unless a test asks (FFMPEG_PATH=ffmpeg): the replicas save tiny fake movies as originals. And no film
      // jobs unless it asks (TRANSCODE_CONCURRENCY): those films stay as uploaded, which the downloads here compare
      // with (a server without ffmpeg still encrypts: decision 0238).
      FFMPEG_PATH: '/nonexistent/ffmpeg',
      TRANSCODE_CONCURRENCY: '0',
    },
    close: async () => {
      await Promise.all(cluster.replicas.map((r) => r.kill('SIGKILL')));
      sandbox.close();
      await running.close();
      await database.close();
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return cluster;
}

async function onServer(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One server process; its port comes from its 'server listening' log line (PORT=0). */
export class Replica {
  readonly output: string[] = [];
  readonly exited: Promise<Exit>;
  private exit: Exit | null = null;
  port = 0;

  private constructor(readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
      });
    });
  }

  /** Starts a server with the cluster's environment plus `env`; resolves once /api/health/ready answers 200. */
  static async start(cluster: Pick<Cluster, 'env' | 'replicas'>, env: Record<string, string> = {}): Promise<Replica> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: apiDir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...cluster.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const replica = new Replica(child);
    cluster.replicas.push(replica);
    const listening = new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        replica.output.push(line);
        if (!line.includes('"server listening"')) return;
        resolve((JSON.parse(line) as { port: number }).port);
      });
      createInterface({ input: child.stderr! }).on('line', (line) => replica.output.push(line));
      void replica.exited.then((exit) =>
        reject(new Error(`server exited (${JSON.stringify(exit)}) before listening:\n${replica.log()}`)),
      );
    });
    replica.port = await withinMs(listening, START_LIMIT_MS, () => `server did not listen:\n${replica.log()}`);
    await replica.waitReady();
    return replica;
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid() {
    return this.child.pid!;
  }

  get running() {
    return this.exit === null;
  }

  log(): string {
    return this.output.slice(-40).join('\n');
  }

  async waitReady(): Promise<void> {
    await pollUntil(
      async () => {
        if (!this.running) throw new Error(`server exited while starting:\n${this.log()}`);
        const res = await fetch(`${this.url}/api/health/ready`).catch(() => null);
        return res?.status === 200;
      },
      START_LIMIT_MS,
      () => `server never became ready:\n${this.log()}`,
    );
  }

  /** Sends a signal by PID; resolves when the process has exited (at once for an exited one). */
  async kill(signal: NodeJS.Signals): Promise<Exit> {
    if (this.running) process.kill(this.pid, signal);
    return this.exited;
  }

  /** A client's request over loopback (a fresh address each time unless told, so rate limits never leak). */
  async request(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.deviceId) headers['x-device-id'] = opts.deviceId;
    headers['x-forwarded-for'] ??= opts.ip ?? freshIp();
    const response = await fetch(`${this.url}${path}`, {
      method: method.toUpperCase(),
      headers,
      body: opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
    });
    return readResponse(response);
  }
}

export async function withinMs<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function pollUntil(check: () => Promise<boolean>, ms: number, message: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(message());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Path and query of a link the API made absolute, to send to any replica. */
export const pathOf = (link: string) => {
  const url = new URL(link, 'http://any');
  return `${url.pathname}${url.search}`;
};

function expectStatus(res: TestResponse, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
  return res;
}

export async function loginAdmin(replica: Replica): Promise<string> {
  const res = await replica.request('POST', '/api/auth/login', {
    body: {
      identifier: ADMIN.email,
      password: ADMIN.password,
      currentDeviceId: `admin-${randomBytes(4).toString('hex')}`,
    },
  });
  return expectStatus(res, 200, 'admin login').json.token as string;
}

export async function registerUser(replica: Replica) {
  const body = newUser();
  const res = expectStatus(await replica.request('POST', '/api/auth/register', { body }), 201, 'register');
  return { body, token: res.json.token as string, userId: res.json.user.id as string };
}

let planCounter = 0;
export async function createPlan(replica: Replica, adminToken: string, priceUgx = 20_000): Promise<string> {
  planCounter += 1;
  const res = await replica.request('POST', '/api/admin/subscription-plans', {
    token: adminToken,
    body: {
      plan_name: `Process plan ${process.pid}-${planCounter}`,
      price_ugx: priceUgx,
      features: ['Unlimited downloads'],
      global_expiry_date: '2027-12-31T23:59',
    },
  });
  return expectStatus(res, 201, 'create plan').json.plan.id as string;
}

export async function subscribe(replica: Replica, adminToken: string, userId: string, planId: string) {
  const res = await replica.request('PUT', `/api/admin/subscribers/${userId}/manage-subscription`, {
    token: adminToken,
    body: { action: 'activate_extend', subscription_plan_id: planId },
  });
  expectStatus(res, 200, 'subscribe');
}

/** A signed upload link for a movie of `size` bytes. */
export async function uploadLink(replica: Replica, adminToken: string, size: number) {
  const res = await replica.request('POST', '/api/admin/movies/generate-upload-url', {
    token: adminToken,
    body: { fileName: 'movie.mp4', fileType: 'video/mp4', fileSize: size, folder: 'movies' },
  });
  expectStatus(res, 200, 'upload link');
  return { s3Key: res.json.s3Key as string, path: pathOf(res.json.presignedUrl as string) };
}

export async function saveMovie(replica: Replica, adminToken: string, s3Key: string, planId: string, size: number) {
  return replica.request('POST', '/api/admin/movies', {
    token: adminToken,
    body: {
      title: `Movie ${randomBytes(4).toString('hex')}`,
      category: 'Kinayuganda',
      rating: 'all',
      movieS3Key: s3Key,
      size,
      planIds: [planId],
    },
  });
}

/** Uploads a movie through /files on `replica` the way the admin console does, and saves it. */
export async function addMovie(replica: Replica, adminToken: string, planId: string, size = 64 * 1024) {
  const bytes = fakeMp4(size);
  const link = await uploadLink(replica, adminToken, size);
  const put = await fetch(`${replica.url}${link.path}`, {
    method: 'PUT',
    headers: { 'content-type': 'video/mp4' },
    body: bytes,
  });
  if (!put.ok) throw new Error(`upload failed: ${put.status} ${await put.text()}`);
  const saved = expectStatus(await saveMovie(replica, adminToken, link.s3Key, planId, size), 201, 'save movie');
  return { movieId: saved.json.movie.id as string, s3Key: link.s3Key, bytes };
}
