import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/**
 * What every log line written inside a request or a background job pass carries: the request's id, or the job's
 * name and the pass's id. Kept in AsyncLocalStorage and added by the logger's mixin (bootstrap.ts), so code deep
 * inside a feature logs through `deps.logger` and still names the request it serves, with nothing passed around.
 */
export type LogContext = { requestId: string } | { job: string; runId: string };

const storage = new AsyncLocalStorage<LogContext>();

export function withLogContext<T>(context: LogContext, run: () => T): T {
  return storage.run(context, run);
}

export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}

/** A reverse proxy's id is kept only when it cannot forge a log line or bloat one (no spaces, no newlines). */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

export function acceptedRequestId(incoming: string | undefined): string {
  return incoming !== undefined && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export const newRunId = (): string => randomUUID();
