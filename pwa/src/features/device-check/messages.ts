import { messages, type DeviceCheckMessageId } from '@filamu/shared/i18n/device-check.en';
import { catalogueOf } from '../../lib/i18n.ts';

/** The phone check's messages (namespace `device-check`, decision 0257). */
export const { t: deviceCheckT, useT: useDeviceCheckT } = catalogueOf<DeviceCheckMessageId>(
  messages,
  () => import('@filamu/shared/i18n/device-check.lg'),
);
