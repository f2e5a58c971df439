import { ERROR_STATUS, type ErrorCode, type FieldIssue, type ProofChallenge } from '@filamu/shared';
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

export function errorResponse(c: Context<AppEnv>, error: AppError) {
  if (error.extra.retryAfterSeconds !== undefined) c.header('Retry-After', String(error.extra.retryAfterSeconds));
  return c.json(
    {
      error: {
        code: error.code,
        message: error.message,
        requestId: c.get('requestId'),
        ...(error.extra.issues ? { issues: error.extra.issues } : {}),
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
