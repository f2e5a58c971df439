import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { loggedAdminAction } from '../../lib/admin-log.ts';
import { listMessages, resendMessage, smsGatewayState } from './messages.ts';

const { messages } = contracts;

export function messageRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(messages.listMessages, ({ query }) => listMessages(deps, query))
    .on(messages.resendMessage, ({ params, principal }) =>
      loggedAdminAction(
        deps.logger,
        principal.user.id,
        'message_resent',
        { messageId: String(params.id), channel: params.channel },
        () => resendMessage(deps, principal.user.id, params.channel, params.id),
      ),
    )
    .on(messages.smsGatewayState, () => smsGatewayState(deps));
}
