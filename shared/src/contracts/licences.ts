import { defineContract } from '../contract.ts';
import { Licence, LicenceCheckRequest, LicenceCheckResponse, LicenceRequest } from '../schemas/licences.ts';

const tag = 'Licences';

export const licenceOfDownloaded = defineContract({
  method: 'post',
  path: '/users/licences',
  summary:
    "The licence of a film the caller downloaded, wrapped for this phone's key; refused (licence_elsewhere) while it is on another phone",
  tag,
  access: 'account',
  body: LicenceRequest,
  response: Licence,
});

export const checkLicences = defineContract({
  method: 'post',
  path: '/licences/check',
  summary:
    'Which of these licences no longer hold (moved, taken down, or unknown); no session needed, so a signed-out phone hears it too',
  tag,
  access: 'public',
  body: LicenceCheckRequest,
  response: LicenceCheckResponse,
});
