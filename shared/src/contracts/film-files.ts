import { defineContract } from '../contract.ts';
import { IdParams } from '../schemas/common.ts';
import { Licence } from '../schemas/licences.ts';
import {
  FilmManifestQuery,
  FilmManifestResponse,
  ReceivedLicenceRequest,
  SigningKeyResponse,
} from '../schemas/film-files.ts';

const tag = 'Films between phones';

export const filmManifest = defineContract({
  method: 'get',
  path: '/users/movies/:id/manifest',
  summary:
    'The signed manifest of a film file the caller downloaded (its size and nonce), kept with the film so it can travel to another phone',
  tag,
  access: 'account',
  params: IdParams,
  query: FilmManifestQuery,
  response: FilmManifestResponse,
});

export const signingKey = defineContract({
  method: 'get',
  path: '/licences/signing-key',
  summary:
    'The public key that signs licences and film manifests (ES256, a JWK): phones check what they receive with it',
  tag,
  access: 'public',
  response: SigningKeyResponse,
});

export const receivedLicence = defineContract({
  method: 'post',
  path: '/users/licences/received',
  summary:
    "The licence of a film that came from another phone: checked against its signed manifest and granted under the download rules, as the caller's one download of it",
  tag,
  access: 'account',
  body: ReceivedLicenceRequest,
  response: Licence,
});
