import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { listWatchPositions, saveWatchPosition } from './positions.ts';

const { watching } = contracts;

export function watchingRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(watching.saveWatchPosition, ({ params, body, principal }) =>
      saveWatchPosition(deps.database.db, principal.user.id, params.movieId, body, deps.clock.now()),
    )
    .on(watching.listWatchPositions, ({ principal }) => listWatchPositions(deps.database.db, principal.user.id));
}
