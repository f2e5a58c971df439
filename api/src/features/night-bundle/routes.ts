import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { adminNightBundle, nightBundle, setNightBundle } from './settings.ts';
import { myTonight, setMyTonight } from './tonight.ts';

const { nightBundle: night } = contracts;

export function nightBundleRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(night.nightBundle, () => nightBundle(deps))
    .on(night.adminNightBundle, () => adminNightBundle(deps))
    .on(night.adminSetNightBundle, ({ body }) => setNightBundle(deps, body))
    .on(night.myTonight, ({ principal }) => myTonight(deps.database.db, principal.user.id))
    .on(night.setMyTonight, ({ principal, body }) =>
      setMyTonight(deps.database, principal.user.id, body, deps.clock.now()),
    );
}
