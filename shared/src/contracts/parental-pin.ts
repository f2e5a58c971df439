import { defineContract } from '../contract.ts';
import {
  ParentalPinStatus,
  RemoveParentalPinRequest,
  SetParentalPinRequest,
  VerifyParentalPinRequest,
} from '../schemas/parental-pin.ts';

const tag = 'Parental PIN';

export const parentalPin = defineContract({
  method: 'get',
  path: '/users/parental-pin',
  summary: 'Whether a parental PIN is set, what it hides, and whether this session has it entered',
  tag,
  access: 'user',
  response: ParentalPinStatus,
});

export const setParentalPin = defineContract({
  method: 'put',
  path: '/users/parental-pin',
  summary: 'Set, change or reset (forgotten) the parental PIN with the account password; clears any lock',
  tag,
  access: 'user',
  body: SetParentalPinRequest,
  response: ParentalPinStatus,
});

export const removeParentalPin = defineContract({
  method: 'post',
  path: '/users/parental-pin/remove',
  summary: 'Turn the parental PIN off with the account password',
  tag,
  access: 'user',
  body: RemoveParentalPinRequest,
  response: ParentalPinStatus,
});

export const verifyParentalPin = defineContract({
  method: 'post',
  path: '/users/parental-pin/verify',
  summary: 'Enter the PIN: shows hidden titles on this session for 30 minutes; 5 wrong tries lock it for 15',
  tag,
  access: 'user',
  body: VerifyParentalPinRequest,
  response: ParentalPinStatus,
});

export const lockParentalPin = defineContract({
  method: 'post',
  path: '/users/parental-pin/lock',
  summary: 'Hide the restricted titles again on this session',
  tag,
  access: 'user',
  response: ParentalPinStatus,
});
