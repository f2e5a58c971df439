import { contracts } from '@filamu/shared';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { forbidden } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import { lockParentalPin, removeParentalPin, setParentalPin, verifyParentalPin } from './pins.ts';
import { parentalPinStatus } from './status.ts';

const { parentalPin } = contracts;

function userPrincipal(c: Context<AppEnv>): Extract<Principal, { kind: 'user' }> {
  const principal = c.get('principal');
  if (principal.kind !== 'user') throw forbidden();
  return principal;
}

export function parentalPinRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(parentalPin.parentalPin, (_input, c) => {
      const principal = userPrincipal(c);
      return parentalPinStatus(deps.database.db, principal.user.id, principal.sessionId, deps.clock.now());
    })
    .on(parentalPin.setParentalPin, ({ body }, c) => setParentalPin(deps, userPrincipal(c), body))
    .on(parentalPin.removeParentalPin, ({ body }, c) => removeParentalPin(deps, userPrincipal(c), body))
    .on(parentalPin.verifyParentalPin, ({ body }, c) => verifyParentalPin(deps, userPrincipal(c), body))
    .on(parentalPin.lockParentalPin, (_input, c) => lockParentalPin(deps, userPrincipal(c)));
}
