import { messages, type DashboardMessageId } from '@filamu/shared/i18n/dashboard.en';
import { catalogueOf } from '../../lib/i18n.ts';

/** The dashboard's messages (namespace `dashboard`, decision 0257). */
export const { t: dashboardT, useT: useDashboardT } = catalogueOf<DashboardMessageId>(
  messages,
  () => import('@filamu/shared/i18n/dashboard.lg'),
);
