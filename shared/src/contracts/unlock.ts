import { defineContract } from '../contract.ts';
import { SealedKeysRequest, SealedKeysResponse, UssdDialRequest, UssdDialResponse } from '../schemas/unlock.ts';

const tag = 'Unlock without data';

export const sealedKeys = defineContract({
  method: 'post',
  path: '/users/sealed-keys',
  summary:
    "This phone's device secret, wrapped for its key, and a sealed key for each live film (a page at a time): kept so a film can be unlocked later by a code from Filamu's USSD service, with no data",
  tag,
  access: 'account',
  body: SealedKeysRequest,
  response: SealedKeysResponse,
});

export const ussdSimulatorDial = defineContract({
  method: 'post',
  path: '/sandbox/ussd/dial',
  summary:
    "USSD simulator mode only: dial Filamu's USSD service as a phone number and type the inputs; answers the screens shown (404 against the real gateway)",
  tag,
  access: 'public',
  body: UssdDialRequest,
  response: UssdDialResponse,
});
