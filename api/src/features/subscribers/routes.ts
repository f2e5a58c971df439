import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import {
  deleteSubscriber,
  grantRedownload,
  listSubscribers,
  manageSubscription,
  resetSubscriberPassword,
} from './subscribers.ts';

const { subscribers } = contracts;

export function subscriberRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(subscribers.listSubscribers, ({ query }) => listSubscribers(deps, query))
    .on(subscribers.manageSubscription, ({ params, body }) => manageSubscription(deps, params.id, body))
    .on(subscribers.grantRedownload, ({ params }) => grantRedownload(deps, params.id))
    .on(subscribers.resetSubscriberPassword, ({ params, principal }) =>
      resetSubscriberPassword(deps, principal.user, params.id),
    )
    .on(subscribers.deleteSubscriber, ({ params, principal }) => deleteSubscriber(deps, principal.user, params.id));
}
