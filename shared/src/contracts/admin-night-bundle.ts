// The operator's night bundle routes, apart from what a phone reads (./night-bundle.ts re-exports them) so a phone never
// builds their schemas (decision 0241).
import { defineContract } from '../contract.ts';
import { NightBundleAdminView, NightBundleSetting } from '../schemas/night-bundle.ts';

const tag = 'Night bundle';

export const adminNightBundle = defineContract({
  method: 'get',
  path: '/admin/settings/night-bundle',
  summary: 'The night price of 1 GB (UGX) and the night windows (Kampala time) the operator set',
  tag,
  access: 'admin',
  response: NightBundleAdminView,
});

export const adminSetNightBundle = defineContract({
  method: 'put',
  path: '/admin/settings/night-bundle',
  summary:
    'Set the night price of 1 GB (UGX) and up to 4 night windows (Kampala time); a window already open keeps its hours, the change applies from the next one',
  tag,
  access: 'admin',
  body: NightBundleSetting,
  response: NightBundleAdminView,
});
