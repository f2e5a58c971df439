import { contracts } from '@filamu/shared';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { publicOrigin } from '../../http/origin.ts';
import { loggedAdminAction } from '../../lib/admin-log.ts';
import { createAgent, deleteAgent, listAgents, resetAgentPassword, updateAgent } from './agents.ts';

const { agents } = contracts;

export function agentRoutes(router: ContractRouter, deps: Deps): void {
  const loginUrl = (c: Context<AppEnv>) => `${publicOrigin(c, deps.config)}/login`;

  // Every change an admin makes to an agent is logged with the admin's id (decision 0207).
  const logged = <T>(adminId: string, action: string, agentId: string, run: () => Promise<T>) =>
    loggedAdminAction(deps.logger, adminId, action, { agentId }, run);
  router
    .on(agents.listAgents, () => listAgents(deps))
    .on(agents.createAgent, ({ body, principal }, c) =>
      loggedAdminAction(
        deps.logger,
        principal.user.id,
        'agent_created',
        (created) => ({ agentId: created.agent.id }),
        () => createAgent(deps, principal.user, body, loginUrl(c)),
      ),
    )
    .on(agents.updateAgent, ({ params, body, principal }) =>
      logged(principal.user.id, 'agent_updated', params.id, () => updateAgent(deps, params.id, body)),
    )
    .on(agents.deleteAgent, ({ params, principal }) =>
      logged(principal.user.id, 'agent_deleted', params.id, () => deleteAgent(deps, params.id)),
    )
    .on(agents.resetAgentPassword, ({ params, body, principal }, c) =>
      logged(principal.user.id, 'agent_password_reset', params.id, () =>
        resetAgentPassword(deps, params.id, body, loginUrl(c)),
      ),
    );
}
