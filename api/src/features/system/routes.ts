import { allContracts, contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { buildOpenApiDocument } from '../../http/openapi.ts';
import { METRICS_OPENAPI } from '../metrics/routes.ts';

export function systemRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(contracts.system.health, async (_input, c) => {
      try {
        await deps.database.ping();
        return { status: 'ok', db: 'ok' } as const;
      } catch (error) {
        deps.logger.error({ err: error }, 'health check: database unreachable');
        return c.json({ status: 'degraded', db: 'error' }, 503);
      }
    })
    .on(contracts.system.meta, async () => ({ maintenance: deps.config.maintenance }));

  let document: object | undefined;
  router.app.get('/openapi.json', (c) => c.json((document ??= buildOpenApiDocument(allContracts, METRICS_OPENAPI))));
}
