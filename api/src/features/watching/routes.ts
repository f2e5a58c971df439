import { contracts } from '@filamu/shared';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { forbidden } from '../../http/errors.ts';
import { listWatchPositions, saveWatchPosition } from './positions.ts';

const { watching } = contracts;

export function watchingRoutes(router: ContractRouter, deps: Deps): void {
  const userId = (c: Context<AppEnv>): string => {
    const principal = c.get('principal');
    if (principal.kind !== 'user') throw forbidden();
    return principal.user.id;
  };
  router
    .on(watching.saveWatchPosition, ({ params, body }, c) =>
      saveWatchPosition(deps.database.db, userId(c), params.movieId, body, deps.clock.now()),
    )
    .on(watching.listWatchPositions, (_input, c) => listWatchPositions(deps.database.db, userId(c)));
}
