import { resolve } from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

/** Every environment variable the server reads, with its default. README's table mirrors this. */
export const EnvSchema = z
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
    ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email().optional()),
    ADMIN_PASSWORD: z.preprocess(
      emptyAsUndefined,
      z.string().min(8, 'must be at least 8 characters').max(256).optional(),
    ),
    ADMIN_NAME: z.string().default('Administrator'),
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
  admin: { email: string; password: string; name: string } | null;
  adminName: string;
  sessionTtlMs: number;
  adminSessionTtlMs: number;
  corsOrigins: string[];
  trustProxy: boolean;
  bodyLimitBytes: number;
  maintenance: boolean;
  logLevel: string;
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
    admin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD
        ? { email: e.ADMIN_EMAIL.toLowerCase(), password: e.ADMIN_PASSWORD, name: e.ADMIN_NAME }
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
  };
}
