import { defineContract } from '../contract.ts';
import { CustomerPlanList, CustomerPlansQuery } from '../schemas/plans.ts';

export { adminCreatePlan, adminDeletePlan, adminListPlans, adminUpdatePlan } from './admin-plans.ts';

export const customerPlans = defineContract({
  method: 'get',
  path: '/users/subscription-plans',
  summary:
    'Plans that can be bought now (active, visible, not expired), by display order; with `movie`, those including that film',
  tag: 'Plans',
  access: 'account',
  query: CustomerPlansQuery,
  response: CustomerPlanList,
});
