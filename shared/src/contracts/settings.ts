import { defineContract } from '../contract.ts';
import { DataPriceSetting } from '../schemas/renditions.ts';

export {
  adminPlanSale,
  adminSetDataPrice,
  adminSetPlanSale,
  adminSetSmsBudget,
  adminSmsBudget,
  adminSmsBudgetStatus,
} from './admin-settings.ts';

const tag = 'Settings';

export const dataPrice = defineContract({
  method: 'get',
  path: '/settings/data-price',
  summary: 'The price of 1 GB of mobile data (UGX) the operator set, for the size choice before a download',
  tag,
  access: 'public',
  response: DataPriceSetting,
});
