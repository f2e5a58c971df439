import { contracts } from '@filamu/shared';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { forbidden } from '../../http/errors.ts';
import { listAdminPayments, recheckPayment, resolvePayment } from './admin-payments.ts';

const { adminPayments } = contracts;

/** The admin Payments tab: the list, review decisions and a re-check with DPO (ADR 0052). */
export function adminPaymentRoutes(router: ContractRouter, deps: Deps): void {
  const admin = (c: Context<AppEnv>) => {
    const principal = c.get('principal');
    if (principal.kind !== 'user') throw forbidden();
    return principal.user;
  };
  router
    .on(adminPayments.listPayments, ({ query }) => listAdminPayments(deps, query))
    .on(adminPayments.resolvePayment, ({ params, body }, c) => resolvePayment(deps, admin(c), params.id, body))
    .on(adminPayments.recheckPayment, ({ params }) => recheckPayment(deps, params.id));
}
