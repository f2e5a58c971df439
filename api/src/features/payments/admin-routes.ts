import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { loggedAdminAction } from '../../lib/admin-log.ts';
import { listAdminPayments, recheckPayment, resolvePayment } from './admin-payments.ts';

const { adminPayments } = contracts;

/** The admin Payments tab: the list, review decisions and a re-check with DPO (ADR 0052). */
export function adminPaymentRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(adminPayments.listPayments, ({ query }) => listAdminPayments(deps, query))
    .on(adminPayments.resolvePayment, ({ params, body, principal }) =>
      resolvePayment(deps, principal.user, params.id, body),
    )
    // The resolution logs its admin itself ('payment review resolved'); a re-check is logged here (decision 0207).
    .on(adminPayments.recheckPayment, ({ params, principal }) =>
      loggedAdminAction(deps.logger, principal.user.id, 'payment_rechecked', { paymentId: params.id }, () =>
        recheckPayment(deps, params.id),
      ),
    );
}
