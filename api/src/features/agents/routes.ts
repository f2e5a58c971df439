import { contracts } from '@filamu/shared';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { publicOrigin } from '../../http/origin.ts';
import { createAgent, deleteAgent, listAgents, resetAgentPassword, updateAgent } from './agents.ts';

const { agents } = contracts;

export function agentRoutes(router: ContractRouter, deps: Deps): void {
  const loginUrl = (c: Context<AppEnv>) => `${publicOrigin(c, deps.config)}/login`;

  router
    .on(agents.listAgents, () => listAgents(deps))
    .on(agents.createAgent, ({ body, principal }, c) => createAgent(deps, principal.user, body, loginUrl(c)))
    .on(agents.updateAgent, ({ params, body }) => updateAgent(deps, params.id, body))
    .on(agents.deleteAgent, ({ params }) => deleteAgent(deps, params.id))
    .on(agents.resetAgentPassword, ({ params, body }, c) => resetAgentPassword(deps, params.id, body, loginUrl(c)));
}
