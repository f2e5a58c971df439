import { contracts } from '@filamu/shared';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { forbidden } from '../../http/errors.ts';
import {
  deleteSubscriber,
  grantRedownload,
  listSubscribers,
  manageSubscription,
  resetSubscriberPassword,
} from './subscribers.ts';

const { subscribers } = contracts;

export function subscriberRoutes(router: ContractRouter, deps: Deps): void {
  const admin = (c: Context<AppEnv>) => {
    const principal = c.get('principal');
    if (principal.kind !== 'user') throw forbidden();
    return principal.user;
  };

  router
    .on(subscribers.listSubscribers, ({ query }) => listSubscribers(deps, query))
    .on(subscribers.manageSubscription, ({ params, body }) => manageSubscription(deps, params.id, body))
    .on(subscribers.grantRedownload, ({ params }) => grantRedownload(deps, params.id))
    .on(subscribers.resetSubscriberPassword, ({ params }, c) => resetSubscriberPassword(deps, admin(c), params.id))
    .on(subscribers.deleteSubscriber, ({ params }, c) => deleteSubscriber(deps, admin(c), params.id));
}
