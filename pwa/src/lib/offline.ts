import { isApiError } from './api.ts';

/** A query or call that failed for want of a connection (not because the server said no). */
export function isOfflineError(error: unknown): boolean {
  return isApiError(error) && (error.code === 'network' || error.code === 'timeout');
}
