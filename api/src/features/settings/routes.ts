import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { dataPrice, setDataPrice } from './data-price.ts';
import { planSale, setPlanSale } from './plan-sale.ts';
import { setSmsBudget, smsBudgetSetting } from './sms-budget.ts';

const { settings } = contracts;

export function settingsRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(settings.dataPrice, () => dataPrice(deps))
    .on(settings.adminSetDataPrice, ({ body }) => setDataPrice(deps, body))
    .on(settings.adminPlanSale, () => planSale(deps.database.db))
    .on(settings.adminSetPlanSale, ({ body }) => setPlanSale(deps, body))
    .on(settings.adminSmsBudget, () => smsBudgetSetting(deps.database.db))
    .on(settings.adminSetSmsBudget, ({ body }) => setSmsBudget(deps, body));
}
