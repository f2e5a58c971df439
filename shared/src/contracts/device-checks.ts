import { defineContract } from '../contract.ts';
import {
  DeviceCheckList,
  DeviceCheckListQuery,
  DeviceCheckReceipt,
  DeviceCheckRequest,
} from '../schemas/device-checks.ts';

const tag = 'Device checks';

export const sendDeviceCheck = defineContract({
  method: 'post',
  path: '/device-checks',
  summary:
    "What a phone's decoder said about each rendition's codecs and whether its sample played (the /device-check page); anyone may send one, kept with the signed-in account if there is one",
  tag,
  access: 'public',
  body: DeviceCheckRequest,
  response: DeviceCheckReceipt,
  status: 201,
});

export const listDeviceChecks = defineContract({
  method: 'get',
  path: '/admin/device-checks',
  summary:
    'The phones checked, newest first, a page at a time: model, Android and Chrome versions, whether each gets the HEVC Small, and how many of all do',
  tag,
  access: 'admin',
  query: DeviceCheckListQuery,
  response: DeviceCheckList,
});
