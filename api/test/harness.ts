import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Contract } from '@filamu/shared';
import { fillPath } from '@filamu/shared';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino, { type Logger } from 'pino';
import { createApp } from '../src/app.ts';
import { createDeps, createLogger } from '../src/bootstrap.ts';
import { TranscodeHub } from '../src/features/transcode/hub.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { users } from '../src/db/schema.ts';
import type { Deps } from '../src/deps.ts';
import { listen, type Running } from '../src/lib/loopback.testing.ts';
import type { DpoSandbox } from '../src/features/payments/dpo/sandbox.ts';
import { type PaymentsRuntime, SANDBOX_MOUNT, sandboxRuntime } from '../src/features/payments/gateway.ts';
import { Hono } from 'hono';
import type { PushGateway } from '../src/features/push/gateway.ts';
import type { SmsRuntime } from '../src/features/sms/runtime.ts';
import { migrationsDir } from '../src/lib/paths.ts';
import {
  PGLITE_TEMPLATE_FILE,
  POSTGRES_TEMPLATE_NAME,
  cloneFromTemplate,
  createPostgresTemplate,
  dropPostgresDatabase,
  migratedPgliteDump,
} from './template-databases.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** PGlite always; the Postgres server too when DATABASE_URL is set (CI sets it). */
export const testDatabases: DatabaseKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** A clock tests can move. */
export class TestClock {
  private current: Date;
  constructor(start = '2026-11-22T09:00:00.000Z') {
    this.current = new Date(start);
  }
  now = () => new Date(this.current);
  advance(ms: number) {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export const ADMIN = { email: 'admin@filamu.test', password: 'admin-password-for-tests' };

let pgliteTemplate: Promise<Blob> | undefined;
/** The migrated PGlite dump: the run's (made by the globalSetup) or, outside vitest, one made here on first use. */
function pgliteTemplateDump(): Promise<Blob> {
  const file = process.env[PGLITE_TEMPLATE_FILE];
  pgliteTemplate ??= file ? readFile(file).then((bytes) => new Blob([new Uint8Array(bytes)])) : migratedPgliteDump();
  return pgliteTemplate;
}

let postgresTemplate: Promise<string> | undefined;
/** The run's migrated template on the server, or one made on first use and dropped when this process exits. */
function postgresTemplateName(serverUrl: string): Promise<string> {
  const given = process.env[POSTGRES_TEMPLATE_NAME];
  postgresTemplate ??= given
    ? Promise.resolve(given)
    : createPostgresTemplate(serverUrl).then((name) => {
        process.once('beforeExit', () => void dropPostgresDatabase(serverUrl, name));
        return name;
      });
  return postgresTemplate;
}

/**
 * A fresh, migrated database: an in-memory PGlite, or a new throwaway database on the Postgres server — each a copy
 * of a migrated template (decision 0189), so start-up finds no migration left to run.
 */
export async function freshDatabase(kind: DatabaseKind): Promise<Database> {
  if (kind === 'pglite') {
    return openDatabase({ kind: 'pglite', dataDir: null, migrationsDir, loadDataDir: await pgliteTemplateDump() });
  }
  const serverUrl = process.env.DATABASE_URL!;
  const name = `filamu_test_${randomBytes(6).toString('hex')}`;
  await cloneFromTemplate(serverUrl, await postgresTemplateName(serverUrl), name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 25, migrationsDir });
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      await dropPostgresDatabase(serverUrl, name);
    },
  };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'filamu-test-')),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'silent',
    TRUST_PROXY: 'true',
    ...overrides,
  });
}

export interface TestApp {
  deps: Deps;
  clock: TestClock;
  app: ReturnType<typeof createApp>;
  /** With the `dpo` option: the sandbox behind the payment gateway. */
  dpoSandbox?: DpoSandbox;
  /** Calls the app in-process the way a client would; returns status, headers and parsed JSON. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Calls a shared contract. */
  call<C extends Contract>(
    contract: C,
    options?: RequestOptions & { params?: Record<string, unknown> },
  ): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  body?: unknown;
  rawBody?: string;
  token?: string;
  deviceId?: string;
  ip?: string;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  text: string;
}

export async function createTestApp(
  kind: DatabaseKind,
  options: {
    env?: Record<string, string>;
    database?: Database;
    clock?: TestClock;
    /** When true, close() leaves the database open (the caller shares it between apps and closes it). */
    keepDatabaseOpen?: boolean;
    /**
     * Runs the DPO sandbox on a loopback port, on the test clock, and injects the real adapter pointed at it.
     * `notify: false` drops the sandbox's push (a lost callback).
     */
    dpo?: { notify?: boolean };
    /** A payment gateway of the test's own (e.g. one that fails); wins over `dpo`. */
    payments?: PaymentsRuntime;
    /** An SMS gateway of the test's own (e.g. a simulator with short delays); default: the configured simulator. */
    sms?: SmsRuntime;
    /** A push gateway of the test's own (e.g. web-push trusting a local push service); default: the configured one. */
    push?: PushGateway;
    /** A built PWA to serve at `/` (createApp's option). */
    pwaDistDir?: string;
    /**
     * Renditions: by default none (no ffmpeg, originals only, so tests can save tiny fake movies); the transcode
     * tests pass the real one (configuredTranscoder).
     */
    transcode?: TranscodeHub;
    /** The app's logger (tests that read the log pass createLogger with a sink); default: silent. */
    logger?: Logger;
  } = {},
): Promise<TestApp> {
  const clock = options.clock ?? new TestClock();
  const database = options.database ?? (await freshDatabase(kind));
  const config = testConfig(options.env);
  const logger = options.logger ?? pino({ level: 'silent' });
  let dpoServer: Running | undefined;
  let payments = options.payments;
  if (options.dpo && !payments) {
    // The URL is known only once the server listens; the adapter is built after, against that URL.
    const sandboxApp = new Hono();
    const runtime = { current: undefined as ReturnType<typeof sandboxRuntime> | undefined };
    sandboxApp.all(`${SANDBOX_MOUNT}/*`, (c) => runtime.current!.sandbox!.app.fetch(c.req.raw));
    sandboxApp.all(SANDBOX_MOUNT, (c) => runtime.current!.sandbox!.app.fetch(c.req.raw));
    dpoServer = await listen(sandboxApp);
    runtime.current = sandboxRuntime(config.payments, clock, logger, {
      apiUrl: `${dpoServer.url}${SANDBOX_MOUNT}/`,
      database,
      settleIntervalMs: 0,
    });
    const notify = options.dpo.notify ?? true;
    payments = notify ? runtime.current : { ...runtime.current, bindNotify: () => {} };
  }
  const transcode = options.transcode ?? TranscodeHub.withoutJobs('Tests run without ffmpeg: originals only.');
  const deps = await createDeps(config, {
    database,
    logger,
    clock,
    payments,
    sms: options.sms,
    push: options.push,
    transcode,
  });
  const app = createApp(deps, { pwaDistDir: options.pwaDistDir });

  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.body !== undefined) headers['content-type'] ??= 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.deviceId) headers['x-device-id'] = opts.deviceId;
    headers['x-forwarded-for'] ??= opts.ip ?? '203.0.113.1';
    const response = await app.request(path, {
      method: method.toUpperCase(),
      headers,
      body: opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
    });
    return readResponse(response);
  };

  return {
    deps,
    clock,
    app,
    request,
    call: (contract, opts = {}) => request(contract.method, `/api${fillPath(contract.path, opts.params)}`, opts),
    dpoSandbox: options.dpo && !options.payments ? deps.dpoSandbox! : undefined,
    close: async () => {
      deps.dpoSandbox?.close();
      deps.smsSimulator?.close();
      await dpoServer?.close();
      await deps.transcode.close();
      if (!options.keepDatabaseOpen) await database.close();
    },
  };
}

/** A logger whose lines the test reads back, parsed (createTestApp's `logger` option). */
export function capturingLogger(): { logger: Logger; entries: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return {
    logger: createLogger('info', sink),
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

let counter = 0;
/** A unique, valid registration payload. */
export function newUser(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const suffix = `${process.pid % 1000}${counter}`.padStart(7, '0').slice(-7);
  return {
    email: `user${suffix}@example.com`,
    password: 'correct horse battery',
    fullName: `Test User ${counter}`,
    phone: `0772${suffix.slice(-6)}`,
    currentDeviceId: `device-${counter}`,
    ...overrides,
  };
}

/** The error envelope every failure answers with, its requestId tied to the X-Request-Id header. */
/** A response as tests read it: status, headers, the text and, when it is JSON, the parsed body. */
export async function readResponse(response: Response): Promise<TestResponse> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (static files, HTML): callers read `text`.
  }
  return { status: response.status, headers: response.headers, json, text };
}

export function expectErrorEnvelope(res: TestResponse, status: number, code: string, message?: string | RegExp) {
  if (res.status !== status || res.json?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text}`);
  }
  const requestId = res.headers.get('x-request-id');
  if (!requestId || res.json.error.requestId !== requestId) {
    throw new Error(`error requestId ${res.json.error.requestId} does not match X-Request-Id ${requestId}`);
  }
  if (typeof res.json.error.message !== 'string' || res.json.error.message.length === 0) {
    throw new Error(`error without a message: ${res.text}`);
  }
  if (message !== undefined) {
    const ok = typeof message === 'string' ? res.json.error.message === message : message.test(res.json.error.message);
    if (!ok) throw new Error(`expected message ${String(message)}, got ${res.json.error.message}`);
  }
}

/** The response body without its per-request id, for comparing two answers. */
export function withoutRequestId(json: { error?: Record<string, unknown> }) {
  if (!json?.error) return json;
  const { requestId: _requestId, ...error } = json.error;
  return { ...json, error };
}

let ipCounter = 0;
/** A client address no other request in this process has used, so throttling never leaks between tests. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

/** Signs the protected admin in; returns its token. */
export async function loginAdmin(t: TestApp, deviceId = `admin-device-${randomBytes(4).toString('hex')}`) {
  const res = await t.request('POST', '/api/auth/login', {
    body: { identifier: ADMIN.email, password: ADMIN.password, currentDeviceId: deviceId },
    ip: freshIp(),
  });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${res.text}`);
  return res.json.token as string;
}

/** Registers a new user; returns the body sent and the response. */
export async function registerUser(t: TestApp, overrides: Record<string, unknown> = {}) {
  const body = newUser(overrides);
  const res = await t.request('POST', '/api/auth/register', { body, ip: freshIp() });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { body, token: res.json.token as string, user: res.json.user, res };
}

/**
 * A registered user whose phone counts as proven, as after the confirm step (decision 0197): for tests of what comes
 * after (recovery by SMS, budgets, ceilings). proven-channels.test.ts proves phones through the API.
 */
export async function registerProvenUser(t: TestApp, overrides: Record<string, unknown> = {}) {
  const registered = await registerUser(t, overrides);
  await t.deps.database.db
    .update(users)
    .set({ phoneVerifiedAt: t.clock.now() })
    .where(eq(users.id, registered.user.id as string));
  return registered;
}

let agentCounter = 0;
/** A unique, valid agent-creation payload. */
export function newAgent(overrides: Record<string, unknown> = {}) {
  agentCounter += 1;
  const suffix = `${process.pid % 1000}${agentCounter}`.padStart(7, '0').slice(-7);
  return {
    full_name: `Test Agent ${agentCounter}`,
    email: `agent${suffix}@example.com`,
    phone: `0701${suffix.slice(-6)}`,
    send_credentials_via: 'none',
    ...overrides,
  };
}

/** Creates an agent as admin; returns the body sent, the created agent and its generated password. */
export async function createAgentAs(t: TestApp, adminToken: string, overrides: Record<string, unknown> = {}) {
  const body = newAgent(overrides);
  const res = await t.request('POST', '/api/agents', { body, token: adminToken });
  if (res.status !== 201) throw new Error(`create agent failed: ${res.status} ${res.text}`);
  return { body, agent: res.json.agent, password: res.json.generatedPassword as string, res };
}
