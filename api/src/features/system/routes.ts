import { allContracts, contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { buildOpenApiDocument } from '../../http/openapi.ts';
import type { Lifecycle } from '../../lifecycle/lifecycle.ts';
import { METRICS_OPENAPI } from '../metrics/routes.ts';

/** A readiness probe must answer within its own timeout even when the pool cannot reach the database. */
const READY_PING_LIMIT_MS = 2000;

/** `documented`: routes that are not JSON contracts, which the wiring documents (the USSD callback). */
export function systemRoutes(
  router: ContractRouter,
  deps: Deps,
  lifecycle: Lifecycle,
  documented: Record<string, object> = {},
): void {
  router
    .on(contracts.system.live, async () => ({ status: 'ok' }) as const)
    .on(contracts.system.ready, async (_input, c) => {
      // Unready at once on SIGTERM, without asking a database the shutdown is about to close.
      if (lifecycle.shuttingDown) return c.json({ status: 'unready', db: 'skipped', shuttingDown: true }, 503);
      const answered = await pingWithin(deps, READY_PING_LIMIT_MS);
      if (lifecycle.shuttingDown) return c.json({ status: 'unready', db: 'skipped', shuttingDown: true }, 503);
      if (!answered) return c.json({ status: 'unready', db: 'error', shuttingDown: false }, 503);
      return { status: 'ready', db: 'ok', shuttingDown: false } as const;
    })
    .on(contracts.system.health, async (_input, c) => {
      try {
        await deps.database.ping();
        return { status: 'ok', db: 'ok' } as const;
      } catch (error) {
        deps.logger.error({ err: error }, 'health check: database unreachable');
        return c.json({ status: 'degraded', db: 'error' }, 503);
      }
    })
    .on(contracts.system.meta, async () => ({ maintenance: deps.config.maintenance }))
    // Sandbox mode is "no DPO account": the admin console says so on every screen.
    .on(contracts.system.adminStatus, async () => ({
      paymentsSandbox: deps.config.payments.dpoCompanyToken === null,
      transcoder: { available: deps.transcode.available, message: deps.transcode.message },
    }));

  let document: object | undefined;
  router.app.get('/openapi.json', (c) =>
    c.json((document ??= buildOpenApiDocument(allContracts, { ...METRICS_OPENAPI, ...documented }))),
  );
}

async function pingWithin(deps: Deps, limitMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), limitMs);
  });
  try {
    return await Promise.race([deps.database.ping().then(() => true), late]);
  } catch (error) {
    deps.logger.warn({ err: error }, 'readiness: database unreachable');
    return false;
  } finally {
    clearTimeout(timer);
  }
}
