import { contracts } from '@filamu/shared';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { forbidden } from '../../http/errors.ts';
import { listMessages, resendMessage, smsGatewayState } from './messages.ts';

const { messages } = contracts;

export function messageRoutes(router: ContractRouter, deps: Deps): void {
  const admin = (c: Context<AppEnv>) => {
    const principal = c.get('principal');
    if (principal.kind !== 'user') throw forbidden();
    return principal.user;
  };

  router
    .on(messages.listMessages, ({ query }) => listMessages(deps, query))
    .on(messages.resendMessage, ({ params }, c) => resendMessage(deps, admin(c).id, params.channel, params.id))
    .on(messages.smsGatewayState, () => smsGatewayState(deps));
}
