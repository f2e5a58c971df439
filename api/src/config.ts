// Longer than 300 lines on purpose: every setting of the server in one schema, read from the environment here and
// nowhere else (lint), so an operator finds each one in one file.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { trimTrailingSlashes } from '@filamu/shared';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

/** Every environment variable the server reads, with its default. docs/configuration.md's table mirrors this. */
const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
        .optional(),
    ),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    JWT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
    CONTENT_MASTER_KEY: z.preprocess(
      emptyAsUndefined,
      z.string().min(32, 'must be at least 32 characters').max(512).optional(),
    ),
    ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email().optional()),
    ADMIN_PASSWORD: z.preprocess(
      emptyAsUndefined,
      z.string().min(8, 'must be at least 8 characters').max(256).optional(),
    ),
    ADMIN_NAME: z.string().default('Administrator'),
    ADMIN_ADOPT_EXISTING: bool.default(false),
    SESSION_TTL_DAYS: z.coerce.number().positive().default(30),
    ADMIN_SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
    CORS_ORIGINS: z.string().default(''),
    TRUST_PROXY: bool.default(false),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    MAINTENANCE_MODE: bool.default(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DPO_API_URL: z.url().default('https://secure.3gdirectpay.com/API/v6/'),
    DPO_COMPANY_TOKEN: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
    DPO_SERVICE_TYPE: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
    DPO_PTL_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(96 * 60)
      .default(15),
    DPO_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    DPO_NOTIFY_SECRET: z.preprocess(emptyAsUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
    ALLOW_PAYMENT_SANDBOX: bool.default(false),
    SANDBOX_PAYMENT_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
    PAYMENT_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
    SMTP_URL: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
        .optional(),
    ),
    MAIL_FROM: z.string().default('Filamu <no-reply@filamu.ug>'),
    AT_USERNAME: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(100).optional()),
    AT_API_KEY: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(500).optional()),
    AT_SENDER_ID: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(20).optional()),
    AT_API_URL: z.url().default('https://api.africastalking.com/version1/messaging'),
    AT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    SMS_DELIVERY_REPORT_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().min(16, 'must be at least 16 characters').optional(),
    ),
    ALLOW_SMS_SIMULATOR: bool.default(false),
    // USSD (decision 0249): Africa's Talking posts to /api/ussd/callback?secret=<this>; without it, the simulator.
    USSD_CALLBACK_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().min(16, 'must be at least 16 characters').max(200).optional(),
    ),
    USSD_ALLOWED_IPS: z.string().max(2000).default(''),
    ALLOW_USSD_SIMULATOR: bool.default(false),
    SMS_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(2000),
    // Web Push (decision 0152): without keys, a pair is generated once and kept in the database like JWT_SECRET.
    VAPID_PUBLIC_KEY: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(200).optional()),
    VAPID_PRIVATE_KEY: z.preprocess(emptyAsUndefined, z.string().trim().min(1).max(200).optional()),
    VAPID_SUBJECT: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^(mailto:|https:\/\/)/, 'must be a mailto: or https:// URL')
        .optional(),
    ),
    /** Extra push service origins subscriptions may point at, beyond the browsers' own (tests: a local one). */
    PUSH_SERVICE_ORIGINS: z.string().default(''),
    PUSH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    PUSH_DISPATCH_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
    PUSH_SWEEP_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(0)
      .max(86_400_000)
      .default(15 * 60_000),
    STORAGE_SIGNING_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().min(32, 'must be at least 32 characters').optional(),
    ),
    S3_BUCKET: z.preprocess(emptyAsUndefined, z.string().trim().min(3).optional()),
    S3_REGION: z.string().trim().min(1).default('us-east-1'),
    S3_ENDPOINT: z.preprocess(emptyAsUndefined, z.url().optional()),
    S3_FORCE_PATH_STYLE: z.preprocess(emptyAsUndefined, bool.optional()),
    S3_ACCESS_KEY_ID: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
    S3_SECRET_ACCESS_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
    CDN_BASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
    MAX_MOVIE_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(8 * 1024 ** 3),
    MAX_THUMBNAIL_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(5 * 1024 ** 2),
    DOWNLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(3600),
    BACKGROUND_DOWNLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(604_800).default(86_400),
    UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(900),
    S3_MULTIPART_THRESHOLD_BYTES: z.coerce
      .number()
      .int()
      .min(5 * 1024 ** 2)
      .default(100 * 1024 ** 2),
    // S3's smallest part (except the last) is 5 MiB; the local driver uses the same rule so one setting fits both.
    UPLOAD_PART_SIZE_BYTES: z.coerce
      .number()
      .int()
      .min(5 * 1024 ** 2)
      .max(5 * 1024 ** 3)
      .default(16 * 1024 ** 2),
    STORAGE_CLEANUP_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(3_600_000),
    ORPHAN_OBJECT_AGE_HOURS: z.coerce.number().positive().max(8760).default(24),
    MULTIPART_UPLOAD_MAX_AGE_HOURS: z.coerce.number().positive().max(8760).default(24),
    STALE_DOWNLOAD_SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(300_000),
    REGISTRATIONS_PER_IP_PER_HOUR: z.coerce.number().int().min(1).default(200),
    REDOWNLOADS_PER_MONTH: z.coerce.number().int().min(0).max(100).default(3),
    // Shutdown and slow clients (decision 0080, 0081).
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(25_000),
    SHUTDOWN_UNREADY_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(7_200_000).default(1_800_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(65_000),
    HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(120_000),
    METRICS_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
    // `worker`: no HTTP port, only rendition jobs (decision 0128).
    FILAMU_ROLE: z.enum(['server', 'worker']).default('server'),
    // Renditions (decision 0124, 0127): ffmpeg jobs this process runs at once; 0 = this process runs none.
    TRANSCODE_CONCURRENCY: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(64).optional()),
    FFMPEG_PATH: z.string().trim().min(1).default('ffmpeg'),
    FFPROBE_PATH: z.string().trim().min(1).default('ffprobe'),
    // pg-boss (decision 0127): a job's expiry is the longer of this and 4× the movie's duration; a job whose process
    // died runs again once it expires.
    TRANSCODE_EXPIRY_MIN_SECONDS: z.coerce.number().int().min(5).max(21_600).default(900),
    // Back-off before the 2nd attempt (doubling, with jitter, before the 3rd).
    TRANSCODE_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    // A work file of the transcoder's folder no process has touched for this long is a dead process's: removed.
    TRANSCODE_STALE_WORK_SECONDS: z.coerce.number().int().min(2).max(86_400).default(600),
  })
  .refine((env) => env.HTTP_HEADERS_TIMEOUT_MS < env.HTTP_REQUEST_TIMEOUT_MS, {
    message: 'must be less than HTTP_REQUEST_TIMEOUT_MS',
    path: ['HTTP_HEADERS_TIMEOUT_MS'],
  })
  .refine((env) => !env.DPO_COMPANY_TOKEN || env.DPO_SERVICE_TYPE, {
    message: 'DPO_SERVICE_TYPE is required when DPO_COMPANY_TOKEN is set',
    path: ['DPO_SERVICE_TYPE'],
    when: () => true,
  })
  // With a real account the push settles real payments: it must not be a public endpoint (decision 0101).
  .refine((env) => !env.DPO_COMPANY_TOKEN || env.DPO_NOTIFY_SECRET, {
    message:
      'DPO_NOTIFY_SECRET is required when DPO_COMPANY_TOKEN is set (DPO pushes to /api/payments/dpo/notify?secret=<it>)',
    path: ['DPO_NOTIFY_SECRET'],
    when: () => true,
  })
  .refine(
    // A forgotten token must not give every plan away: production runs the simulator only when asked in so many words.
    (env) => env.NODE_ENV !== 'production' || env.DPO_COMPANY_TOKEN !== undefined || env.ALLOW_PAYMENT_SANDBOX === true,
    {
      message:
        'is not set, and NODE_ENV=production would run the built-in DPO sandbox, where any charge is "paid" and ' +
        'no money moves. Either set DPO_COMPANY_TOKEN and DPO_SERVICE_TYPE (real payments through DPO), or set ' +
        'ALLOW_PAYMENT_SANDBOX=true to run the sandbox on purpose (a demo or staging server)',
      path: ['DPO_COMPANY_TOKEN'],
      when: () => true,
    },
  )
  .refine((env) => (env.AT_API_KEY === undefined) === (env.AT_USERNAME === undefined), {
    message: 'AT_API_KEY and AT_USERNAME must be set together',
    path: ['AT_USERNAME'],
    when: () => true,
  })
  // Delivery reports change what the operator sees of a message: the callback must not be public (decision 0146).
  .refine((env) => !env.AT_API_KEY || env.SMS_DELIVERY_REPORT_SECRET, {
    message:
      "SMS_DELIVERY_REPORT_SECRET is required when AT_API_KEY is set (Africa's Talking posts delivery reports to " +
      '/api/sms/delivery-reports?secret=<it>)',
    path: ['SMS_DELIVERY_REPORT_SECRET'],
    when: () => true,
  })
  .refine(
    // Recovery codes would go to the simulator, never to a phone: production runs it only when asked in so many words.
    (env) => env.NODE_ENV !== 'production' || env.AT_API_KEY !== undefined || env.ALLOW_SMS_SIMULATOR === true,
    {
      message:
        'is not set, and NODE_ENV=production would run the built-in SMS simulator, so no text message (a password ' +
        "recovery code) would reach a phone. Either set AT_USERNAME and AT_API_KEY (Africa's Talking), or set " +
        'ALLOW_SMS_SIMULATOR=true to run the simulator on purpose (a demo or staging server)',
      path: ['AT_API_KEY'],
      when: () => true,
    },
  )
  .refine((env) => (env.VAPID_PUBLIC_KEY === undefined) === (env.VAPID_PRIVATE_KEY === undefined), {
    message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together',
    path: ['VAPID_PRIVATE_KEY'],
    when: () => true,
  })
  .refine((env) => (env.S3_ACCESS_KEY_ID === undefined) === (env.S3_SECRET_ACCESS_KEY === undefined), {
    message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    path: ['S3_SECRET_ACCESS_KEY'],
    when: () => true,
  })
  .refine(
    (env) => (emptyAsUndefined(env.ADMIN_EMAIL) === undefined) === (emptyAsUndefined(env.ADMIN_PASSWORD) === undefined),
    {
      message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
      path: ['ADMIN_PASSWORD'],
      // Checked even when other variables are invalid, so every problem is listed at once.
      when: () => true,
    },
  );

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string | null;
  dataDir: string;
  databaseUrl: string | null;
  databasePoolSize: number;
  jwtSecret: string | null;
  /** Seals each title's content key (decision 0229); null ⇒ generated once and kept in app_secrets. */
  contentMasterKey: string | null;
  /** `adoptExisting`: an existing non-admin account with this email may become the admin (ADMIN_ADOPT_EXISTING). */
  admin: { email: string; password: string; name: string; adoptExisting: boolean } | null;
  adminName: string;
  sessionTtlMs: number;
  adminSessionTtlMs: number;
  corsOrigins: string[];
  trustProxy: boolean;
  bodyLimitBytes: number;
  maintenance: boolean;
  logLevel: string;
  payments: PaymentsConfig;
  /** Null ⇒ mail stays in the outbox and the log line is the delivery. */
  smtpUrl: string | null;
  mailFrom: string;
  sms: SmsConfig;
  ussd: UssdConfig;
  push: PushConfig;
  storage: StorageConfig;
  /** How often downloads silent for an hour are marked paused; 0 disables the background sweep. */
  staleDownloadSweepIntervalMs: number;
  /** New accounts per client address per hour (ADR 0061); the other rate limits are constants. */
  registrationsPerIpPerHour: number;
  /** Downloads again of movies a person completed before, per Kampala calendar month (decision 0121). */
  redownloadsPerMonth: number;
  /** Bearer token of `/api/metrics`; null ⇒ the endpoint answers 404 (ADR 0095). */
  metricsToken: string | null;
  http: HttpTimeouts;
  shutdown: ShutdownConfig;
  transcode: TranscodeConfig;
}

/** The rendition jobs (decision 0127). */
export interface TranscodeConfig {
  /** `worker`: this process serves no HTTP and only runs rendition jobs (FILAMU_ROLE). */
  role: 'server' | 'worker';
  /** ffmpeg jobs this process runs at once; 0 ⇒ it runs none (a serving replica next to workers). */
  concurrency: number;
  ffmpegPath: string;
  ffprobePath: string;
  /** Floor of a job's pg-boss expiry (seconds); also how often expired jobs are looked for, at most 120 s. */
  expiryMinSeconds: number;
  /** pg-boss retry delay (seconds) before the 2nd attempt; doubled, with jitter, before the 3rd. */
  retryDelaySeconds: number;
  /** A work file untouched this long (seconds) belongs to no live process; a live one touches its file more often. */
  staleWorkSeconds: number;
}

/** The Node HTTP server's limits against slow or silent clients (decision 0081). */
export interface HttpTimeouts {
  /** Time to receive a request's headers (slowloris). */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included (an upload part over slow Wi-Fi); answers are not covered. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open; longer than a load balancer's idle timeout. */
  keepAliveTimeoutMs: number;
  /** A connection with no bytes either way for this long is closed (a stalled download resumes by Range); 0 = never. */
  idleTimeoutMs: number;
}

/** What SIGTERM does (decision 0080). */
export interface ShutdownConfig {
  /** How long requests in flight may finish before the rest are cut and the process exits non-zero. */
  drainMs: number;
  /** How long readiness answers 503 with the port still open, before new connections are refused. */
  unreadyDelayMs: number;
}

export interface S3Config {
  bucket: string;
  region: string;
  /** S3-compatible stores (MinIO, R2, s3rver…); null for AWS. */
  endpoint: string | null;
  forcePathStyle: boolean;
  /** Null ⇒ the AWS SDK's default credential chain. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

export interface StorageConfig {
  /** `s3` when S3_BUCKET is set, otherwise the local folder served at /files. */
  driver: 'local' | 's3';
  /** Local driver: where objects live (DATA_DIR/objects). */
  localDir: string;
  /** Local driver: HMAC key for /files URLs; null ⇒ generated once and kept in the database. */
  signingSecret: string | null;
  s3: S3Config | null;
  /** Public origin (and path) thumbnails are served from, e.g. https://cdn.filamu.ug. */
  cdnBaseUrl: string | null;
  maxMovieBytes: number;
  maxThumbnailBytes: number;
  /** Lifetime of a download link for the in-app engine (re-minted whenever it lapses). */
  downloadUrlTtlSeconds: number;
  /** Longest lifetime of a Background Fetch link (it cannot ask for a new one); each gets what its file needs. */
  backgroundDownloadUrlTtlSeconds: number;
  /** Time to start an upload with a signed upload link. */
  uploadUrlTtlSeconds: number;
  /** Movies above this size are uploaded in parts (both drivers; resumable part by part). */
  multipartThresholdBytes: number;
  /** The smallest part size (bigger when a movie would need more than 10,000 parts). */
  multipartPartSizeBytes: number;
  /** The storage cleanup job (decision 0083). */
  cleanup: StorageCleanupConfig;
}

interface StorageCleanupConfig {
  /** How often one replica runs a pass (and one shortly after start); 0 disables the job. */
  intervalMs: number;
  /** Objects no movie references are removed once this old (an admin may be mid-way through the form). */
  orphanAgeMs: number;
  /** Multipart uploads idle this long (S3: initiated this long ago) are aborted. */
  multipartMaxAgeMs: number;
}

export interface SmsConfig {
  /** Null ⇒ the built-in Africa's Talking simulator is used instead, in process (never mounted: decision 0203). */
  africasTalking: { username: string; apiKey: string; senderId: string | null; url: string } | null;
  timeoutMs: number;
  /** When set, the delivery report callback must carry `?secret=<this>`. */
  deliveryReportSecret: string | null;
  /** How often one pass of the SMS outbox runs; 0 disables the dispatcher. */
  dispatchIntervalMs: number;
}

export interface UssdConfig {
  /**
   * Africa's Talking's callback must carry `?secret=<this>` (it does not sign USSD callbacks). Null ⇒ no real gateway:
   * the built-in simulator in development and tests (or with ALLOW_USSD_SIMULATOR), USSD off in production.
   */
  callbackSecret: string | null;
  /** When not empty, the callback is taken only from these client addresses (the gateway's, as the operator lists). */
  allowedIps: string[];
  /** The in-process simulator and its dial route run (never by accident in production: decision 0249). */
  simulator: boolean;
}

interface PushConfig {
  /** Null ⇒ a key pair generated on first start and kept in app_secrets. */
  vapidKeys: { publicKey: string; privateKey: string } | null;
  /** The contact push services see (mailto: or https:). */
  vapidSubject: string;
  /** Origins (scheme://host[:port]) accepted as push endpoints besides the browsers' push services. */
  extraServiceOrigins: string[];
  timeoutMs: number;
  /** 0 disables the push dispatcher. */
  dispatchIntervalMs: number;
  /** How often the new-movies sweep looks; 0 disables it. */
  sweepIntervalMs: number;
}

export interface PaymentsConfig {
  /** DPO's API3G endpoint; ignored in sandbox mode. */
  dpoApiUrl: string;
  /** Null ⇒ sandbox mode: the built-in DPO simulator is mounted at /sandbox/dpo/API/v6 and used instead of DPO. */
  dpoCompanyToken: string | null;
  dpoServiceType: string;
  ptlMinutes: number;
  timeoutMs: number;
  /** When set, the push URL must carry `?secret=<this>`. */
  notifySecret: string | null;
  sandboxPaymentDelayMs: number;
  /** 0 disables the background reconciler. */
  reconcileIntervalMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parse the environment once, at start, and fail with every problem listed. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`));
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? null,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL ?? null,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    jwtSecret: e.JWT_SECRET ?? null,
    contentMasterKey: e.CONTENT_MASTER_KEY ?? null,
    admin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD
        ? {
            email: e.ADMIN_EMAIL.toLowerCase(),
            password: e.ADMIN_PASSWORD,
            name: e.ADMIN_NAME,
            adoptExisting: e.ADMIN_ADOPT_EXISTING,
          }
        : null,
    adminName: e.ADMIN_NAME,
    sessionTtlMs: e.SESSION_TTL_DAYS * 86_400_000,
    adminSessionTtlMs: e.ADMIN_SESSION_TTL_HOURS * 3_600_000,
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    trustProxy: e.TRUST_PROXY,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    maintenance: e.MAINTENANCE_MODE,
    logLevel: e.LOG_LEVEL,
    payments: {
      dpoApiUrl: e.DPO_API_URL,
      dpoCompanyToken: e.DPO_COMPANY_TOKEN ?? null,
      dpoServiceType: e.DPO_SERVICE_TYPE ?? 'sandbox',
      ptlMinutes: e.DPO_PTL_MINUTES,
      timeoutMs: e.DPO_TIMEOUT_MS,
      notifySecret: e.DPO_NOTIFY_SECRET ?? null,
      sandboxPaymentDelayMs: e.SANDBOX_PAYMENT_DELAY_MS,
      reconcileIntervalMs: e.PAYMENT_RECONCILE_INTERVAL_MS,
    },
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    sms: {
      africasTalking:
        e.AT_USERNAME && e.AT_API_KEY
          ? { username: e.AT_USERNAME, apiKey: e.AT_API_KEY, senderId: e.AT_SENDER_ID ?? null, url: e.AT_API_URL }
          : null,
      timeoutMs: e.AT_TIMEOUT_MS,
      deliveryReportSecret: e.SMS_DELIVERY_REPORT_SECRET ?? null,
      dispatchIntervalMs: e.SMS_DISPATCH_INTERVAL_MS,
    },
    ussd: {
      callbackSecret: e.USSD_CALLBACK_SECRET ?? null,
      allowedIps: e.USSD_ALLOWED_IPS.split(',')
        .map((ip) => ip.trim())
        .filter(Boolean),
      simulator: e.USSD_CALLBACK_SECRET === undefined && (e.NODE_ENV !== 'production' || e.ALLOW_USSD_SIMULATOR),
    },
    push: {
      vapidKeys:
        e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
          ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
          : null,
      vapidSubject:
        e.VAPID_SUBJECT ??
        (e.PUBLIC_URL?.startsWith('https://') ? e.PUBLIC_URL : `mailto:${e.ADMIN_EMAIL ?? 'push@filamu.app'}`),
      extraServiceOrigins: e.PUSH_SERVICE_ORIGINS.split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .map((o) => trimTrailingSlashes(o)),
      timeoutMs: e.PUSH_TIMEOUT_MS,
      dispatchIntervalMs: e.PUSH_DISPATCH_INTERVAL_MS,
      sweepIntervalMs: e.PUSH_SWEEP_INTERVAL_MS,
    },
    storage: {
      driver: e.S3_BUCKET ? 's3' : 'local',
      localDir: resolve(e.DATA_DIR, 'objects'),
      signingSecret: e.STORAGE_SIGNING_SECRET ?? null,
      s3: e.S3_BUCKET
        ? {
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT ?? null,
            forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
            credentials:
              e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
                ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
                : null,
          }
        : null,
      cdnBaseUrl: e.CDN_BASE_URL ? trimTrailingSlashes(e.CDN_BASE_URL) : null,
      maxMovieBytes: e.MAX_MOVIE_BYTES,
      maxThumbnailBytes: e.MAX_THUMBNAIL_BYTES,
      downloadUrlTtlSeconds: e.DOWNLOAD_URL_TTL_SECONDS,
      backgroundDownloadUrlTtlSeconds: e.BACKGROUND_DOWNLOAD_URL_TTL_SECONDS,
      uploadUrlTtlSeconds: e.UPLOAD_URL_TTL_SECONDS,
      multipartThresholdBytes: e.S3_MULTIPART_THRESHOLD_BYTES,
      multipartPartSizeBytes: e.UPLOAD_PART_SIZE_BYTES,
      cleanup: {
        intervalMs: e.STORAGE_CLEANUP_INTERVAL_MS,
        orphanAgeMs: e.ORPHAN_OBJECT_AGE_HOURS * 3_600_000,
        multipartMaxAgeMs: e.MULTIPART_UPLOAD_MAX_AGE_HOURS * 3_600_000,
      },
    },
    staleDownloadSweepIntervalMs: e.STALE_DOWNLOAD_SWEEP_INTERVAL_MS,
    registrationsPerIpPerHour: e.REGISTRATIONS_PER_IP_PER_HOUR,
    redownloadsPerMonth: e.REDOWNLOADS_PER_MONTH,
    metricsToken: e.METRICS_TOKEN ?? null,
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
    },
    shutdown: { drainMs: e.SHUTDOWN_DRAIN_MS, unreadyDelayMs: e.SHUTDOWN_UNREADY_DELAY_MS },
    transcode: {
      role: e.FILAMU_ROLE,
      concurrency: e.TRANSCODE_CONCURRENCY ?? Math.max(1, Math.floor(availableParallelism() / 2)),
      ffmpegPath: e.FFMPEG_PATH,
      ffprobePath: e.FFPROBE_PATH,
      expiryMinSeconds: e.TRANSCODE_EXPIRY_MIN_SECONDS,
      retryDelaySeconds: e.TRANSCODE_RETRY_DELAY_SECONDS,
      staleWorkSeconds: e.TRANSCODE_STALE_WORK_SECONDS,
    },
  };
}
