import { Agent, createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { gracefulShutdown } from './graceful-shutdown.ts';
import { createLifecycle } from './lifecycle.ts';

/** A server whose `/slow` answer takes `slowMs` (ten pieces), and `/fast` answers at once. */
async function startServer(slowMs: number): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.url === '/fast') return void res.end('fast');
    res.writeHead(200, { 'content-length': '10' });
    let sent = 0;
    const timer = setInterval(() => {
      res.write('x');
      sent += 1;
      if (sent === 10) {
        clearInterval(timer);
        res.end();
      }
    }, slowMs / 10);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A GET that never throws: a refused or cut request resolves with `complete: false` and the error's code. */
function fetchText(url: string, agent?: Agent): Promise<{ body: string; complete: boolean; error?: string }> {
  return new Promise((resolve) => {
    get(url, { agent: agent ?? false }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('error', () => {});
      res.on('close', () => resolve({ body, complete: res.complete }));
    }).on('error', (error: NodeJS.ErrnoException) => resolve({ body: '', complete: false, error: error.code }));
  });
}

async function refused(url: string): Promise<boolean> {
  return (await fetchText(`${url}/fast`)).error === 'ECONNREFUSED';
}

describe('graceful shutdown', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.closeAllConnections();
  });

  function install(server: Server, config: { drainMs: number; unreadyDelayMs?: number }) {
    servers.push(server);
    const lifecycle = createLifecycle();
    let released = 0;
    let exit: (code: number) => void;
    const exited = new Promise<number>((resolve) => (exit = resolve));
    const shutdown = gracefulShutdown({
      server,
      lifecycle,
      config: { unreadyDelayMs: 0, ...config },
      logger: pino({ level: 'silent' }),
      release: async () => void (released += 1),
      exit: (code) => exit(code),
    });
    return { lifecycle, shutdown, exited, released: () => released };
  }

  it('lets a request in flight finish, refuses new connections, releases once and exits 0', async () => {
    const { server, url } = await startServer(600);
    const { lifecycle, shutdown, exited, released } = install(server, { drainMs: 5000 });
    const inFlight = fetchText(`${url}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    shutdown('SIGTERM');
    expect(lifecycle.shuttingDown).toBe(true);
    expect(await refused(url)).toBe(true);
    expect(await inFlight).toEqual({ body: 'x'.repeat(10), complete: true });
    expect(await exited).toBe(0);
    expect(released()).toBe(1);
  });

  it('is not held open by an idle keep-alive connection', async () => {
    const { server, url } = await startServer(100);
    const { shutdown, exited } = install(server, { drainMs: 10_000 });
    const agent = new Agent({ keepAlive: true });
    expect((await fetchText(`${url}/fast`, agent)).body).toBe('fast');
    const startedAt = Date.now();
    shutdown('SIGTERM');
    expect(await exited).toBe(0);
    expect(Date.now() - startedAt).toBeLessThan(2000);
    agent.destroy();
  });

  it('cuts what is left after the drain and exits 1', async () => {
    const { server, url } = await startServer(3000);
    const { shutdown, exited, released } = install(server, { drainMs: 200 });
    const inFlight = fetchText(`${url}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    shutdown('SIGTERM');
    expect((await inFlight).complete).toBe(false);
    expect(await exited).toBe(1);
    expect(released()).toBe(1);
  });

  it('keeps the port open during the unready delay, and a second signal cuts at once', async () => {
    const { server, url } = await startServer(3000);
    const { lifecycle, shutdown, exited } = install(server, { drainMs: 60_000, unreadyDelayMs: 60_000 });
    const inFlight = fetchText(`${url}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    shutdown('SIGTERM');
    expect(lifecycle.shuttingDown).toBe(true);
    expect((await fetchText(`${url}/fast`)).body).toBe('fast');
    shutdown('SIGINT');
    expect(await exited).toBe(1);
    expect((await inFlight).complete).toBe(false);
  });
});
