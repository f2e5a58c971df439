import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { AppError } from '../../http/errors.ts';

const METRICS_PATH = '/metrics';

/** Not a JSON contract (the answer is Prometheus text), so documented by hand in the OpenAPI document. */
export const METRICS_OPENAPI: Record<string, object> = {
  [`/api${METRICS_PATH}`]: {
    get: {
      summary: 'Prometheus metrics (text exposition format); 404 unless the server sets METRICS_TOKEN',
      tags: ['System'],
      'x-access': 'metrics token',
      security: [{ metricsToken: [] }],
      responses: {
        '200': { description: 'Metrics', content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
        '401': { description: 'Missing or wrong metrics token (error envelope)' },
        '404': { description: 'Metrics are disabled: METRICS_TOKEN is not set (error envelope)' },
      },
    },
  },
};

/** Equal-length digests, so the comparison takes the same time whatever the caller sent (and however long). */
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /api/metrics`: Prometheus text for whoever holds METRICS_TOKEN as a bearer token (ADR 0095). Without the
 * variable the endpoint does not exist (the API's 404), so a default install exposes nothing.
 */
export function metricsRoutes(router: ContractRouter, deps: Deps): void {
  const token = deps.config.metricsToken;
  const expected = token ? digest(token) : null;
  router.app.get(METRICS_PATH, async (c) => {
    if (!expected) throw new AppError('not_found', 'No such API route.');
    const match = /^Bearer ([^\s]+)$/i.exec(c.req.header('Authorization') ?? '');
    if (!match || !timingSafeEqual(digest(match[1]!), expected)) {
      c.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new AppError('unauthenticated', 'A valid metrics token is required.');
    }
    const body = await deps.metrics.registry.metrics();
    c.header('Content-Type', deps.metrics.registry.contentType);
    return c.body(body, 200);
  });
}
