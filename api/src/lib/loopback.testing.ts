import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Clock } from './clock.ts';

/** Test support for anything that talks HTTP: a movable clock and real loopback servers. */

export class MovableClock implements Clock {
  private current: number;
  constructor(start = '2026-11-22T09:00:00.000Z') {
    this.current = new Date(start).getTime();
  }
  now() {
    return new Date(this.current);
  }
  advance(ms: number) {
    this.current += ms;
  }
}

export interface Running {
  url: string;
  close(): Promise<void>;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** Serves a Hono app on 127.0.0.1 with a free port (`serve({ fetch, port: 0 })`). */
export function listen(app: Hono): Promise<Running> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => closeServer(server as Server) });
    });
  });
}

/** A server that accepts requests and never answers; counts them. */
export function listenSilent(): Promise<Running & { requests(): number }> {
  let count = 0;
  const server = createServer(() => {
    count += 1;
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => closeServer(server), requests: () => count });
    });
  });
}

/** A loopback port with nothing listening on it (connection refused). */
export async function closedPort(): Promise<string> {
  const running = await listenSilent();
  await running.close();
  return running.url;
}
