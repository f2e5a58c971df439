import { contracts } from '@filamu/shared';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { forbidden } from '../../http/errors.ts';
import { subscribe, unsubscribe } from './subscriptions.ts';

const { push } = contracts;

function userId(c: Context<AppEnv>): string {
  const principal = c.get('principal');
  if (principal.kind !== 'user') throw forbidden();
  return principal.user.id;
}

export function pushRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(push.publicKey, async () => ({ publicKey: deps.push.publicKey }))
    .on(push.subscribe, async ({ body }, c) => {
      await subscribe(deps.database, deps.clock.now(), userId(c), body, deps.config.push.extraServiceOrigins);
      return { subscribed: true };
    })
    .on(push.unsubscribe, async ({ body }, c) => {
      await unsubscribe(deps.database, userId(c), body.endpoint);
      return { subscribed: false };
    });
}
