import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { ShutdownConfig } from '../config.ts';
import type { ControlledLifecycle } from './lifecycle.ts';

export interface ShutdownParts {
  server: Server;
  lifecycle: ControlledLifecycle;
  config: ShutdownConfig;
  logger: Logger;
  /** Stops background jobs and closes the database; runs once no request is left (or they were cut). */
  release: () => Promise<void>;
  exit: (code: number) => void;
}

/** Idle keep-alive connections are closed as they appear, so only requests in flight hold the drain open. */
const IDLE_SWEEP_MS = 250;
/** Closing the pool and stopping the jobs must not keep a process that was told to go. */
const RELEASE_LIMIT_MS = 10_000;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Graceful shutdown (decision 0080): unready at once; after the unready delay the port closes; requests in
 * flight (long downloads included) get `drainMs` to finish, then the rest are cut and the exit code is 1.
 * A second signal cuts at once. Returns the function the signal handlers call.
 */
export function gracefulShutdown(parts: ShutdownParts): (signal: string) => void {
  const { server, lifecycle, config, logger } = parts;
  let cutNow!: () => void;
  const forced = new Promise<void>((resolve) => {
    cutNow = resolve;
  });
  let started = false;

  const run = async (signal: string) => {
    lifecycle.beginShutdown();
    logger.info({ signal, ...config }, 'shutting down: unready, draining requests in flight');
    // Without a delay the listener closes in this same turn, so not one more connection is accepted.
    if (config.unreadyDelayMs > 0) await Promise.race([wait(config.unreadyDelayMs), forced]);

    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const outcome = await Promise.race([
      drained.then(() => 'drained' as const),
      wait(config.drainMs).then(() => 'timeout' as const),
      forced.then(() => 'forced' as const),
    ]);
    clearInterval(sweep);
    if (outcome !== 'drained') {
      logger.warn({ outcome }, 'shutting down: cutting the requests still in flight');
      server.closeAllConnections();
    }
    const released = await Promise.race([
      parts.release().then(
        () => true,
        (error: unknown) => (logger.error({ err: error }, 'shutting down: release failed'), false),
      ),
      wait(RELEASE_LIMIT_MS).then(() => false),
    ]);
    const code = outcome === 'drained' && released ? 0 : 1;
    logger.info({ code, outcome }, 'stopped');
    parts.exit(code);
  };

  return (signal) => {
    if (started) {
      logger.warn({ signal }, 'second signal: stopping at once');
      cutNow();
      return;
    }
    started = true;
    void run(signal);
  };
}
