import { defineContract } from '../contract.ts';
import { DataPriceSetting } from '../schemas/renditions.ts';

const tag = 'Settings';

export const dataPrice = defineContract({
  method: 'get',
  path: '/settings/data-price',
  summary: 'The price of 1 GB of mobile data (UGX) the operator set, for the size choice before a download',
  tag,
  access: 'public',
  response: DataPriceSetting,
});

export const adminSetDataPrice = defineContract({
  method: 'put',
  path: '/admin/settings/data-price',
  summary: 'Set the price of 1 GB of mobile data (UGX) that download sizes are priced at',
  tag,
  access: 'admin',
  body: DataPriceSetting,
  response: DataPriceSetting,
});
