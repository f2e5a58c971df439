import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { createPlan, deletePlan, listAdminPlans, listCustomerPlans, updatePlan } from './plans.ts';

const { plans } = contracts;

export function planRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(plans.customerPlans, ({ query }) => listCustomerPlans(deps, query.movie))
    .on(plans.adminListPlans, () => listAdminPlans(deps))
    .on(plans.adminCreatePlan, ({ body }) => createPlan(deps, body))
    .on(plans.adminUpdatePlan, ({ params, body }) => updatePlan(deps, params.id, body))
    .on(plans.adminDeletePlan, ({ params }) => deletePlan(deps, params.id));
}
