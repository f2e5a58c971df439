// The admin console's plan routes, apart from the customer's (./plans.ts re-exports them) so a phone never builds
// their schemas (decision 0241).
import { defineContract } from '../contract.ts';
import { IdParams, Message } from '../schemas/common.ts';
import { AdminPlanList, AdminPlanResponse, PlanInput, PlanUpdate } from '../schemas/admin-plans.ts';

export const adminListPlans = defineContract({
  method: 'get',
  path: '/admin/subscription-plans',
  summary: 'Every plan, by display order',
  tag: 'Plans',
  access: 'admin',
  response: AdminPlanList,
});

export const adminCreatePlan = defineContract({
  method: 'post',
  path: '/admin/subscription-plans',
  summary: 'Create a plan',
  tag: 'Plans',
  access: 'admin',
  body: PlanInput,
  response: AdminPlanResponse,
  status: 201,
});

export const adminUpdatePlan = defineContract({
  method: 'put',
  path: '/admin/subscription-plans/:id',
  summary: 'Change a plan (partial)',
  tag: 'Plans',
  access: 'admin',
  params: IdParams,
  body: PlanUpdate,
  response: AdminPlanResponse,
});

export const adminDeletePlan = defineContract({
  method: 'delete',
  path: '/admin/subscription-plans/:id',
  summary: 'Delete a plan nobody has used; a plan with subscribers or payments is refused with 409',
  tag: 'Plans',
  access: 'admin',
  params: IdParams,
  response: Message,
});
