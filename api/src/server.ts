import { mkdirSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { createDeps, createLogger, openConfiguredDatabase } from './bootstrap.ts';
import { smtpTransport, startMailDispatcher } from './features/mail/smtp-dispatcher.ts';
import { startStaleDownloadSweep } from './features/downloads/bookkeeping.ts';
import { startReconciler } from './features/payments/reconciler.ts';
import { ConfigError, loadConfig } from './config.ts';
import { installClientErrorEnvelope } from './http/client-errors.ts';
import { pwaDistDir } from './lib/paths.ts';

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
  const app = createApp(deps, { pwaDistDir });
  const stopReconciler = startReconciler(deps, config.payments.reconcileIntervalMs);
  const stopStaleSweep = startStaleDownloadSweep(deps, config.staleDownloadSweepIntervalMs);
  const stopMail = config.smtpUrl
    ? startMailDispatcher(deps, smtpTransport(config.smtpUrl), config.mailFrom, 5000)
    : async () => {};
  if (!config.payments.dpoCompanyToken)
    logger.warn('DPO_COMPANY_TOKEN is not set: payments use the built-in DPO sandbox');

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const url = config.publicUrl ?? `http://localhost:${info.port}`;
    logger.info({ port: info.port, database: database.kind }, 'server listening');
    process.stdout.write(
      `\n  Filamu is running at ${url}\n  (database: ${database.kind === 'pglite' ? `PGlite in ${config.dataDir}/pg` : 'Postgres'}; ` +
        `files: ${config.storage.s3 ? `S3 bucket ${config.storage.s3.bucket}` : config.storage.localDir})\n\n`,
    );
  });
  installClientErrorEnvelope(server, logger);

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    deps.dpoSandbox?.close();
    server.close(() => {
      void Promise.all([stopReconciler(), stopStaleSweep(), stopMail()])
        .then(() => database.close())
        .finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
