import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import pino from 'pino';
import type { AppEnv } from '../../http/env.ts';
import { AppError, errorResponse, handleError } from '../../http/errors.ts';
import { MovableClock } from '../../lib/loopback.testing.ts';
import type { FileTraffic } from '../metrics/registry.ts';
import { createLocalStorage, FILES_MOUNT } from './local.ts';
import type { ObjectStorage } from './storage.ts';

/** Test support for the local driver: its file server on a real loopback port, in a fresh folder. */

export interface RunningLocalFiles {
  /** `http://127.0.0.1:<port>`; storage links are relative to it. */
  url: string;
  dir: string;
  secret: string;
  clock: MovableClock;
  storage: ObjectStorage;
  server: Server;
  /** The absolute URL of a storage link. */
  absolute(link: string): string;
  close(): Promise<void>;
}

/**
 * Mounts the file server the way app.ts does (request id and logger first, the API's error handler), without the
 * database the whole app needs, and serves it with @hono/node-server, so the direct-to-socket pump is exercised.
 */
export async function startLocalFiles(
  options: { corsOrigins?: string[]; traffic?: FileTraffic } = {},
): Promise<RunningLocalFiles> {
  const dir = mkdtempSync(join(tmpdir(), 'filamu-files-'));
  const secret = randomBytes(32).toString('base64url');
  const clock = new MovableClock();
  const { storage, fileServer } = createLocalStorage({
    dir,
    secret,
    clock,
    cdnBaseUrl: null,
    corsOrigins: options.corsOrigins ?? [],
    traffic: options.traffic,
  });
  const logger = pino({ level: 'silent' });
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.use(requestId({ headerName: 'X-Request-Id' }));
  app.use(async (c, next) => {
    c.set('logger', logger);
    await next();
  });
  app.route(FILES_MOUNT, fileServer);
  app.notFound((c) => errorResponse(c, new AppError('not_found', 'Not found.')));

  const server = await new Promise<Server>((resolve) => {
    const running = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(running as Server));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the file server has no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    dir,
    secret,
    clock,
    storage,
    server,
    absolute: (link) => new URL(link, `${url}/`).toString(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` until it is true (or fails after `timeoutMs`). */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition still false after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
