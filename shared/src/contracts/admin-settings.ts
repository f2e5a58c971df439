// The operator's settings routes, apart from the one a phone reads (./settings.ts re-exports them) so a phone never
// builds their schemas (decision 0241).
import { defineContract } from '../contract.ts';
import { PlanSaleSetting } from '../schemas/admin-plans.ts';
import { DataPriceSetting } from '../schemas/renditions.ts';
import { SmsBudgetSetting, SmsBudgetStatus } from '../schemas/sms-budget.ts';

const tag = 'Settings';

export const adminSetDataPrice = defineContract({
  method: 'put',
  path: '/admin/settings/data-price',
  summary: 'Set the price of 1 GB of mobile data (UGX) that download sizes are priced at',
  tag,
  access: 'admin',
  body: DataPriceSetting,
  response: DataPriceSetting,
});

export const adminPlanSale = defineContract({
  method: 'get',
  path: '/admin/settings/plan-sale',
  summary: 'When plan cards start warning that little of a plan is left, and when a plan stops being sold',
  tag,
  access: 'admin',
  response: PlanSaleSetting,
});

export const adminSetPlanSale = defineContract({
  method: 'put',
  path: '/admin/settings/plan-sale',
  summary: 'Set the hours before a plan ends that cards warn from and that its sale stops (0 sells to the end)',
  tag,
  access: 'admin',
  body: PlanSaleSetting,
  response: PlanSaleSetting,
});

export const adminSmsBudget = defineContract({
  method: 'get',
  path: '/admin/settings/sms-budget',
  summary: 'The SMS budget: hourly and daily ceilings per purpose, codes per network, and the alarm thresholds',
  tag,
  access: 'admin',
  response: SmsBudgetSetting,
});

export const adminSetSmsBudget = defineContract({
  method: 'put',
  path: '/admin/settings/sms-budget',
  summary: 'Set the SMS budget (codes past a ceiling are refused; receipts and reminders wait until it allows)',
  tag,
  access: 'admin',
  body: SmsBudgetSetting,
  response: SmsBudgetSetting,
});

export const adminSmsBudgetStatus = defineContract({
  method: 'get',
  path: '/admin/sms-budget',
  summary: "Texts sent this hour and today per purpose against their ceilings, the gateway's balance, and the alarm",
  tag,
  access: 'admin',
  response: SmsBudgetStatus,
});
