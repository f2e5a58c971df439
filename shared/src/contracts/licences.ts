import { defineContract } from '../contract.ts';
import { IdParams } from '../schemas/common.ts';
import {
  Licence,
  LicenceCheckRequest,
  LicenceCheckResponse,
  LicenceRequest,
  TakeDownRequest,
  TakeDownResponse,
} from '../schemas/licences.ts';

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

export const takeDownMovie = defineContract({
  method: 'post',
  path: '/admin/movies/:id/take-down',
  summary:
    'Take a film down for rights: hidden, never granted or licensed again, every licence of it revoked (phones stop playing it at their next check)',
  tag,
  access: 'admin',
  params: IdParams,
  body: TakeDownRequest,
  response: TakeDownResponse,
});
