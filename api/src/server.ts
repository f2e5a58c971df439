import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { createDeps, createLogger, openConfiguredDatabase } from './bootstrap.ts';
import { smtpTransport, startMailDispatcher } from './features/mail/smtp-dispatcher.ts';
import { startStaleDownloadSweep } from './features/downloads/bookkeeping.ts';
import { startReconciler } from './features/payments/reconciler.ts';
import { startPosterSweep } from './features/posters/sweep.ts';
import { startNightWindowPush } from './features/night-bundle/window-push.ts';
import { startNewMoviesSweep } from './features/push/new-movies.ts';
import { startPushDispatcher } from './features/push/outbox.ts';
import { pushReminderChannel } from './features/reminders/push-channel.ts';
import { smsReminderChannel } from './features/reminders/sms-channel.ts';
import { startReminderSweep } from './features/reminders/sweep.ts';
import { startSmsDispatcher } from './features/sms/outbox.ts';
import { startStorageCleanup } from './features/storage/cleanup.ts';
import { startTranscodeRunner } from './features/transcode/runner.ts';
import type { Deps } from './deps.ts';
import { ConfigError, type HttpTimeouts, loadConfig } from './config.ts';
import { installClientErrorEnvelope } from './http/client-errors.ts';
import { gracefulShutdown } from './lifecycle/graceful-shutdown.ts';
import { createLifecycle } from './lifecycle/lifecycle.ts';
import { pwaDistDir } from './lib/paths.ts';

/** Node's limits against slow clients (decision 0081); the check interval must be short for them to bite. */
function serverOptions(http: HttpTimeouts) {
  return {
    headersTimeout: http.headersTimeoutMs,
    requestTimeout: http.requestTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, http.headersTimeoutMs),
  };
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const logger = createLogger(config.logLevel);
  const database = await openConfiguredDatabase(config);
  const deps = await createDeps(config, { database, logger });
  const stopTranscoder = await startTranscodeRunner(deps);
  if (config.transcode.role === 'worker') return runWorker(deps, stopTranscoder);
  const lifecycle = createLifecycle();
  const app = createApp(deps, { pwaDistDir, lifecycle });
  const stopReconciler = startReconciler(deps, config.payments.reconcileIntervalMs);
  const stopStaleSweep = startStaleDownloadSweep(deps, config.staleDownloadSweepIntervalMs);
  const stopStorageCleanup = startStorageCleanup(deps, config.storage.cleanup.intervalMs);
  const stopPosterSweep = startPosterSweep(deps);
  const stopMail = config.smtpUrl
    ? startMailDispatcher(deps, smtpTransport(config.smtpUrl), config.mailFrom, 5000)
    : async () => {};
  const stopSms = startSmsDispatcher(deps, deps.sms, config.sms.dispatchIntervalMs);
  // Each channel a plan reminder goes out on (decision 0150); another channel is one more entry.
  const stopReminders = startReminderSweep(deps, [smsReminderChannel, pushReminderChannel]);
  if (config.sms.africasTalking && !config.publicUrl)
    logger.warn('PUBLIC_URL is not set: the renew link in plan reminders points at this server’s local address');
  const stopPush = startPushDispatcher(deps, deps.push, config.push.dispatchIntervalMs);
  const stopNewMovies = startNewMoviesSweep(deps);
  const stopNightWindowPush = startNightWindowPush(deps);
  if (!config.sms.africasTalking)
    logger.warn(
      "AT_API_KEY is not set: text messages go to the built-in SMS simulator (no phone receives them); read them in the log ('sms simulator: message') or at /api/admin/sms-simulator/messages",
    );
  if (!config.payments.dpoCompanyToken)
    logger.warn('DPO_COMPANY_TOKEN is not set: payments use the built-in DPO sandbox (no real money)');

  const options = {
    fetch: app.fetch,
    port: config.port,
    hostname: config.host,
    serverOptions: serverOptions(config.http),
  };
  const httpServer = serve(options, (info) => {
    const url = config.publicUrl ?? `http://localhost:${info.port}`;
    logger.info({ port: info.port, database: database.kind }, 'server listening');
    process.stdout.write(
      `\n  Filamu is running at ${url}\n  (database: ${database.kind === 'pglite' ? `PGlite in ${config.dataDir}/pg` : 'Postgres'}; ` +
        `files: ${config.storage.s3 ? `S3 bucket ${config.storage.s3.bucket}` : config.storage.localDir})\n\n`,
    );
  });

  const server = httpServer as Server;
  server.keepAliveTimeout = config.http.keepAliveTimeoutMs;
  server.timeout = config.http.idleTimeoutMs;
  installClientErrorEnvelope(server, logger);

  const shutdown = gracefulShutdown({
    server,
    lifecycle,
    config: config.shutdown,
    logger,
    release: async () => {
      deps.dpoSandbox?.close();
      deps.smsSimulator?.close();
      await Promise.all([
        stopReconciler(),
        stopStaleSweep(),
        stopStorageCleanup(),
        stopPosterSweep(),
        stopMail(),
        stopSms(),
        stopReminders(),
        stopPush(),
        stopNewMovies(),
        stopNightWindowPush(),
        stopTranscoder(),
      ]);
      await deps.transcode.close();
      await database.close();
    },
    exit: (code) => process.exit(code),
  });
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/**
 * FILAMU_ROLE=worker (decision 0128): no HTTP port and no other background jobs, only rendition and encryption jobs
 * (without ffmpeg, encryption only: decision 0238). SIGTERM hands running jobs back to the pg-boss queue for another
 * process and exits.
 */
function runWorker(deps: Deps, stopTranscoder: () => Promise<void>): void {
  if (deps.config.transcode.concurrency <= 0) deps.logger.error('worker: nothing to do (TRANSCODE_CONCURRENCY=0)');
  else if (!deps.transcode.available) deps.logger.warn('worker: no ffmpeg, so it only encrypts films (no renditions)');
  deps.logger.info({ concurrency: deps.config.transcode.concurrency }, 'worker started (no HTTP port)');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info({ signal }, 'worker stopping');
    stopTranscoder()
      .then(() => deps.transcode.close())
      .then(() => deps.database.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          deps.logger.error({ err: error }, 'worker: stopping failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  // Problems found once the database is open (the protected admin) are told like configuration problems.
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
