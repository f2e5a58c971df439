import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../../http/env.ts';
import type { Metrics } from './registry.ts';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The `route` label: the pattern of the route that answered (`/api/movies/:id`), never the raw path, so the
 * number of series stays fixed whatever clients send. Each mount outside `/api` the app names (`/files`, the DPO
 * sandbox) is one route, the PWA's pages and assets are `static`, and anything no route took (the API's 404, a
 * refused method, a preflight) is `unmatched`.
 */
function routeLabel(c: Context<AppEnv>, mounts: readonly string[]): string {
  const route = matchedRoutes(c).at(c.req.routeIndex);
  const path = route?.path ?? '';
  const mount = mounts.find((m) => path === m || path.startsWith(`${m}/`));
  if (mount) return mount;
  if (path.startsWith('/api/') && !path.endsWith('*')) return path;
  // The PWA's catch-all is a GET route; the global middleware on the same pattern is registered for ALL methods.
  if ((path === '/*' || path === '*') && route?.method === 'GET') return 'static';
  return 'unmatched';
}

/** Counts and times every answer, errors included (it runs outside the error handlers, so it sees their status). */
export function httpMetrics(metrics: Metrics, mounts: readonly string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const labels = {
      method: METHODS.has(c.req.method) ? c.req.method : 'other',
      route: routeLabel(c, mounts),
      status: String(c.res.status),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, (performance.now() - started) / 1000);
  };
}
