import { createHash } from 'node:crypto';
import { INLINE_SCRIPTS } from '@filamu/shared';
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { secureHeaders } from 'hono/secure-headers';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { acceptedRequestId, withLogContext } from '../lib/log-context.ts';
import type { AppEnv } from './env.ts';
import { AppError } from './errors.ts';

/**
 * The request's id: the reverse proxy's `X-Request-Id` when it is safe to log, else a new one; echoed in the
 * response and the error envelope, and put in the log context for everything the request runs (ADR 0096).
 */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const requestId = acceptedRequestId(c.req.header('X-Request-Id'));
  c.set('requestId', requestId);
  c.header('X-Request-Id', requestId);
  await withLogContext({ requestId }, next);
};

/**
 * One log line per request: method, path (never the query, which can hold signed URLs), status, duration; the
 * request id comes from the log context, like on every other line the request writes.
 */
export function requestLogging(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    c.set('logger', logger);
    await next();
    const status = c.res.status;
    const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    logger[level](
      {
        method: c.req.method,
        path: c.req.path,
        status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      },
      'request',
    );
  };
}

/** The inline scripts the pages carry (the theme before first paint, the app loader), allowed by their hashes. */
const INLINE_SCRIPT_HASHES = INLINE_SCRIPTS.map(
  (script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
);

const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", ...INLINE_SCRIPT_HASHES],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  mediaSrc: ["'self'", 'blob:', 'https:'],
  connectSrc: ["'self'", 'https:'],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

export function securityHeaders(config: Config): MiddlewareHandler<AppEnv> {
  return secureHeaders({
    // A route's own choice wins (/files sends no-referrer and, for allowed origins, cross-origin CORP).
    overwrite: false,
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
    strictTransportSecurity: config.env === 'production' ? 'max-age=31536000; includeSubDomains' : false,
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
  });
}

/** Same origin by default; only the configured origins get CORS headers, never an echo of any origin. */
export function corsPolicy(config: Config): MiddlewareHandler<AppEnv> {
  return cors({
    origin: (origin) => (config.corsOrigins.includes(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'X-Device-Id', 'X-Request-Id'],
    exposeHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
}

const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export const rejectUnusedMethods: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!ALLOWED_METHODS.has(c.req.method)) throw new AppError('method_not_allowed', 'Method not allowed.');
  await next();
};
