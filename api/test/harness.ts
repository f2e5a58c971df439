import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Contract } from '@filamu/shared';
import { fillPath } from '@filamu/shared';
import pg from 'pg';
import pino from 'pino';
import { createApp } from '../src/app.ts';
import { createDeps } from '../src/bootstrap.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import type { Deps } from '../src/deps.ts';
import { migrationsDir } from '../src/lib/paths.ts';

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

/** A fresh, migrated database: in-memory PGlite, or a new throwaway database on the Postgres server. */
export async function freshDatabase(kind: DatabaseKind): Promise<Database> {
  if (kind === 'pglite') return openDatabase({ kind: 'pglite', dataDir: null, migrationsDir });
  const serverUrl = process.env.DATABASE_URL!;
  const name = `filamu_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 25, migrationsDir });
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
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
  options: { env?: Record<string, string>; database?: Database; clock?: TestClock } = {},
): Promise<TestApp> {
  const clock = options.clock ?? new TestClock();
  const database = options.database ?? (await freshDatabase(kind));
  const config = testConfig(options.env);
  const deps = await createDeps(config, { database, logger: pino({ level: 'silent' }), clock });
  const app = createApp(deps);

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
    const text = await response.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, json, text };
  };

  return {
    deps,
    clock,
    app,
    request,
    call: (contract, opts = {}) => request(contract.method, `/api${fillPath(contract.path, opts.params)}`, opts),
    close: () => database.close(),
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
