import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { lockParentalPin, removeParentalPin, setParentalPin, verifyParentalPin } from './pins.ts';
import { parentalPinStatus } from '../auth/parental-status.ts';

const { parentalPin } = contracts;

export function parentalPinRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(parentalPin.parentalPin, ({ principal }) =>
      parentalPinStatus(deps.database.db, principal.user.id, principal.sessionId, deps.clock.now()),
    )
    .on(parentalPin.setParentalPin, ({ body, principal }) => setParentalPin(deps, principal, body))
    .on(parentalPin.removeParentalPin, ({ body, principal }) => removeParentalPin(deps, principal, body))
    .on(parentalPin.verifyParentalPin, ({ body, principal }) => verifyParentalPin(deps, principal, body))
    .on(parentalPin.lockParentalPin, ({ principal }) => lockParentalPin(deps, principal));
}
