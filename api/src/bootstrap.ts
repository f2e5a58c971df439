import { join } from 'node:path';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.ts';
import { resolveSecret } from './db/app-secrets.ts';
import { type Database, openDatabase } from './db/client.ts';
import type { Deps } from './deps.ts';
import { ensureProtectedAdmin } from './features/auth/protected-admin.ts';
import { TokenService } from './features/auth/tokens.ts';
import { Catalogue } from './features/catalog/catalogue.ts';
import { masterKeyFrom, sealedContentKeys } from './features/content-keys/content-keys.ts';
import { Deliveries } from './features/downloads/deliveries.ts';
import { LinkChecks } from './features/downloads/link-checks.ts';
import { resolveLicenceSigner } from './features/licences/signing.ts';
import { forgetUndeliverableSecrets, maskExpiredCodeMail, outboxMailer } from './features/mail/mailer.ts';
import { configuredPaymentsRuntime, type PaymentsRuntime } from './features/payments/gateway.ts';
import { handlePush } from './features/payments/settlement.ts';
import { type PushGateway, webPushGateway } from './features/push/gateway.ts';
import { resolveVapidKeys } from './features/push/vapid.ts';
import { sealedKeyRootsFrom } from './features/sealed-keys/crypto.ts';
import { applyDeliveryReport, forgetUnsendableSmsSecrets } from './features/sms/outbox.ts';
import { parseDeliveryReport } from './features/sms/protocol.ts';
import { configuredSmsRuntime, type SmsRuntime } from './features/sms/runtime.ts';
import { configuredStorage, type StorageRuntime } from './features/storage/runtime.ts';
import { createMetrics } from './features/metrics/registry.ts';
import { STALE_AFTER_MS } from './features/downloads/stale.ts';
import { smsBudgetCollector } from './features/sms/budget-metrics.ts';
import { TranscodeHub } from './features/transcode/hub.ts';
import { detectTranscoder } from './features/transcode/transcoder.ts';
import { configuredUssdRuntime } from './features/ussd/runtime.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { currentLogContext } from './lib/log-context.ts';
import { childLimitsAvailable } from './lib/ffmpeg.ts';
import { migrationsDir } from './lib/paths.ts';

/** The one way to make the app's logger: its mixin stamps each line with the request or job it belongs to. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: undefined,
    // A copy: pino's default merge writes each line's fields into the object the mixin returns, which would carry
    // them (an SMS text, say) into every later line of the same request or job run.
    mixin: () => ({ ...currentLogContext() }),
    redact: {
      paths: [
        'req.headers.authorization',
        '*.password',
        '*.newPassword',
        '*.currentPassword',
        '*.token',
        'password',
        'token',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export function openConfiguredDatabase(config: Config): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({ kind: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize, migrationsDir })
    : openDatabase({ kind: 'pglite', dataDir: join(config.dataDir, 'pg'), migrationsDir });
}

/** Migrates, resolves secrets, ensures the protected admin and assembles the dependencies. */
export async function createDeps(
  config: Config,
  parts: {
    database: Database;
    logger: Logger;
    clock?: Clock;
    /** The payment gateway (tests inject one pointed at a loopback sandbox); default from the configuration. */
    payments?: PaymentsRuntime;
    /** Object storage (tests inject one, e.g. S3 against a local S3-protocol server); default from the configuration. */
    storage?: StorageRuntime;
    /** The SMS gateway (tests inject a simulator with short delays); default from the configuration. */
    sms?: SmsRuntime;
    /** Web Push (tests inject one trusting a local push service); default: web-push with the stored VAPID keys. */
    push?: PushGateway;
    /** Renditions (tests choose; default: ffmpeg and ffprobe looked up from the configuration). */
    transcode?: TranscodeHub;
  },
): Promise<Deps> {
  const { database, logger } = parts;
  const clock = parts.clock ?? systemClock;
  // Under the start-up lock, so replicas starting together agree on one generated key and one admin.
  const secrets = await database.prepare(async (db) => {
    const jwt = await resolveSecret(db, 'jwt_signing_key', config.jwtSecret);
    const files = await resolveSecret(db, 'file_signing_key', config.storage.signingSecret);
    const vapid = await resolveVapidKeys(db, config.push.vapidKeys);
    const contentMaster = await resolveSecret(db, 'content_master_key', config.contentMasterKey);
    const licenceSigner = await resolveLicenceSigner(db);
    await ensureProtectedAdmin(db, config, logger, clock.now());
    const forgotten = await forgetUndeliverableSecrets(db, config.smtpUrl !== null);
    if (forgotten > 0) logger.info({ mails: forgotten }, 'credentials nothing will deliver removed from the outbox');
    const texts = await forgetUnsendableSmsSecrets(db, config.sms.dispatchIntervalMs > 0);
    if (texts > 0) logger.info({ texts }, 'passwords nothing will send removed from the SMS outbox');
    const codeMail = await maskExpiredCodeMail(db, clock.now());
    if (codeMail > 0) logger.info({ mails: codeMail }, 'expired codes masked in the mail outbox');
    return { jwt, files, vapid, contentMaster, licenceSigner };
  });
  const tokens = new TokenService(secrets.jwt);
  const payments = parts.payments ?? configuredPaymentsRuntime(config, clock, logger, database);
  const sms = parts.sms ?? configuredSmsRuntime(config.sms, clock, logger);
  const metrics = createMetrics({ config, database, clock, logger, staleAfterMs: STALE_AFTER_MS }, [
    smsBudgetCollector({ database, clock, logger, smsGateway: sms.gateway }),
  ]);
  const linkChecks = new LinkChecks({ database, clock });
  const deliveries = new Deliveries({
    database,
    clock,
    logger,
    metrics,
    onEnded: (downloadId) => linkChecks.forget(downloadId),
  });
  const storage =
    parts.storage ??
    configuredStorage(config.storage, {
      clock,
      corsOrigins: config.corsOrigins,
      signingSecret: secrets.files,
      traffic: metrics.fileTraffic,
      grants: {
        allows: (link) => linkChecks.allows(link),
        track: (grant, start, end, key) => deliveries.track(grant, start, end, key),
      },
    });
  const transcode = parts.transcode ?? (await configuredTranscoder(config, logger));
  // The process's one pg-boss instance (with or without ffmpeg: films are encrypted either way); stopped by whoever
  // closes these deps.
  await transcode.open(database, config.transcode, logger, clock.now());
  const deps: Deps = {
    config,
    database,
    clock,
    logger,
    tokens,
    mailer: outboxMailer(logger, { delivers: config.smtpUrl !== null }),
    payments: payments.gateway,
    dpoSandbox: payments.sandbox,
    sms: sms.gateway,
    smsSimulator: sms.simulator,
    ussd: configuredUssdRuntime(config.ussd, logger),
    push:
      parts.push ??
      webPushGateway({ keys: secrets.vapid, subject: config.push.vapidSubject, timeoutMs: config.push.timeoutMs }),
    storage: storage.storage,
    fileServer: storage.fileServer,
    catalogue: new Catalogue({ database, storage: storage.storage, config, clock }),
    deliveries,
    metrics,
    contentKeys: sealedContentKeys(database.db, masterKeyFrom(secrets.contentMaster)),
    sealedKeyRoots: sealedKeyRootsFrom(secrets.contentMaster),
    licenceSigner: secrets.licenceSigner,
    transcode,
  };
  // The sandbox's push runs the notify route's function directly: verifyToken + settle, never trusting the push.
  payments.bindNotify(async (transToken) => void (await handlePush(deps, transToken)));
  // The simulator's delivery reports go through the same parser and function as the callback route.
  sms.simulator?.bindReports(async (form) => {
    const report = parseDeliveryReport(form);
    if (report) await applyDeliveryReport(deps, report);
  });
  return deps;
}

/**
 * Looks for ffmpeg and ffprobe once; without them the server runs and says so once (originals only), as it does when
 * ffmpeg cannot make the HEVC Small (decision 0251).
 */
export async function configuredTranscoder(config: Config, logger: Logger): Promise<TranscodeHub> {
  const found = await detectTranscoder({ ffmpeg: config.transcode.ffmpegPath, ffprobe: config.transcode.ffprobePath });
  if (!found.transcoder?.makesSmallHevc) logger.warn(found.message);
  if (found.transcoder && !(await childLimitsAvailable()))
    logger.warn(
      'prlimit was not found (util-linux): ffmpeg runs without its memory and CPU-time bounds (decision 0206)',
    );
  return new TranscodeHub(found.transcoder, found.message);
}
