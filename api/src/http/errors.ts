import {
  ERROR_STATUS,
  localeFromLanguages,
  localizeErrorMessage,
  type ErrorCode,
  type FieldIssue,
  type Locale,
  type ProofChallenge,
} from '@filamu/shared';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { z } from 'zod';
import type { AppEnv } from './env.ts';

/** The one error type of the API: a code the client can switch on and a message a person can read. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { issues?: FieldIssue[]; retryAfterSeconds?: number; proof?: ProofChallenge } = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const unauthenticated = (message = 'Please sign in to continue.') => new AppError('unauthenticated', message);
export const forbidden = (message = 'You do not have permission to do this.') => new AppError('forbidden', message);
export const notFound = (what = 'Resource') => new AppError('not_found', `${what} not found.`);
export const conflict = (message: string) => new AppError('conflict', message);

export function validationError(error: z.ZodError): AppError {
  const issues = error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
  const first = issues[0];
  const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'Invalid request.';
  return new AppError('validation_error', message, { issues });
}

const codeForStatus: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'throttled',
  503: 'unavailable',
};

/**
 * The language of a request (decision 0258): the account's for a signed-in person, else the Accept-Language header
 * (the app sends the language it shows), else English.
 */
export function requestLocale(c: Context<AppEnv>): Locale {
  const principal = c.get('principal') as AppEnv['Variables']['principal'] | undefined;
  if (principal?.kind === 'user') return principal.user.language;
  return localeFromLanguages(c.req.header('Accept-Language') ?? null);
}

/**
 * A message in the request's language: one the catalogue knows by its English words, or `path: message` as a
 * validation error's summary says it. Anything else (a message with figures in it) stays as thrown.
 */
function localized(locale: Locale, message: string): string {
  if (locale === 'en') return message;
  const whole = localizeErrorMessage(locale, message);
  if (whole !== message) return whole;
  const colon = message.indexOf(': ');
  if (colon <= 0 || colon > 64) return message;
  return `${message.slice(0, colon + 2)}${localizeErrorMessage(locale, message.slice(colon + 2))}`;
}

export function errorResponse(c: Context<AppEnv>, error: AppError) {
  if (error.extra.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.extra.retryAfterSeconds));
  const locale = requestLocale(c);
  const issues = error.extra.issues?.map((issue) => ({ ...issue, message: localized(locale, issue.message) }));
  return c.json(
    {
      error: {
        code: error.code,
        message: localized(locale, error.message),
        requestId: c.get('requestId'),
        ...(issues ? { issues } : {}),
        ...(error.extra.proof ? { proof: error.extra.proof } : {}),
      },
    },
    error.status as 400,
  );
}

/** Maps anything thrown to the envelope; unknown errors are logged in full and answered without detail. */
export function handleError(error: Error, c: Context<AppEnv>) {
  if (error instanceof AppError) return errorResponse(c, error);
  if (error instanceof HTTPException) {
    const status = error.status;
    const code = codeForStatus[status] ?? (status >= 500 ? 'internal' : 'bad_request');
    const message = status === 400 ? 'The request body is not valid JSON.' : error.message || 'Request failed.';
    return errorResponse(c, new AppError(code, message));
  }
  c.get('logger').error({ err: error }, 'unhandled error');
  return errorResponse(c, new AppError('internal', 'Something went wrong on our side. Please try again.'));
}
