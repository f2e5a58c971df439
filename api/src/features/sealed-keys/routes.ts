import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { sealedKeysFor } from './issue.ts';

export function sealedKeyRoutes(router: ContractRouter, deps: Deps): void {
  router.on(contracts.unlock.sealedKeys, ({ body, principal }) =>
    sealedKeysFor(
      deps,
      principal.kind === 'user' ? { kind: 'user', id: principal.user.id } : { kind: 'agent', id: principal.agent.id },
      principal.deviceId,
      body,
    ),
  );
}
