import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { subscribe, unsubscribe } from './subscriptions.ts';

const { push } = contracts;

export function pushRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(push.publicKey, async () => ({ publicKey: deps.push.publicKey }))
    .on(push.subscribe, async ({ body, principal }) => {
      await subscribe(deps.database, deps.clock.now(), principal.user.id, body, deps.config.push.extraServiceOrigins);
      return { subscribed: true };
    })
    .on(push.unsubscribe, async ({ body, principal }) => {
      await unsubscribe(deps.database, principal.user.id, body.endpoint);
      return { subscribed: false };
    });
}
