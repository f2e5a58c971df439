import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { dataPrice, setDataPrice } from './data-price.ts';

const { settings } = contracts;

export function settingsRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(settings.dataPrice, () => dataPrice(deps))
    .on(settings.adminSetDataPrice, ({ body }) => setDataPrice(deps, body));
}
