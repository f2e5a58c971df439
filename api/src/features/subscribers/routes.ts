import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { loggedAdminAction } from '../../lib/admin-log.ts';
import {
  deleteSubscriber,
  grantRedownload,
  listSubscribers,
  manageSubscription,
  resetSubscriberPassword,
} from './subscribers.ts';
import { subscriberHistory, supportContext } from './support.ts';

const { subscribers } = contracts;

export function subscriberRoutes(router: ContractRouter, deps: Deps): void {
  // Every change an admin makes to a person is logged with the admin's id (decision 0207).
  const logged = <T>(adminId: string, action: string, userId: string, run: () => Promise<T>, detail?: string) =>
    loggedAdminAction(deps.logger, adminId, action, { userId }, run, detail);
  router
    .on(subscribers.listSubscribers, ({ query }) => listSubscribers(deps, query))
    .on(subscribers.manageSubscription, ({ params, body, principal }) =>
      logged(
        principal.user.id,
        'subscription_managed',
        params.id,
        () => manageSubscription(deps, params.id, body),
        body.action,
      ),
    )
    .on(subscribers.subscriberSupportContext, ({ params }) => supportContext(deps, params.id))
    .on(subscribers.subscriberHistory, ({ params }) => subscriberHistory(deps, params.id))
    .on(subscribers.grantRedownload, ({ params, body, principal }) =>
      logged(principal.user.id, 'redownload_granted', params.id, () =>
        grantRedownload(deps, principal.user, params.id, body.note),
      ),
    )
    .on(subscribers.resetSubscriberPassword, ({ params, principal }) =>
      logged(principal.user.id, 'password_reset', params.id, () =>
        resetSubscriberPassword(deps, principal.user, params.id),
      ),
    )
    .on(subscribers.deleteSubscriber, ({ params, principal }) =>
      logged(principal.user.id, 'subscriber_deleted', params.id, () =>
        deleteSubscriber(deps, principal.user, params.id),
      ),
    );
}
