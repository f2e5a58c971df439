import { defineContract } from '../contract.ts';
import { AnalyticsQuery, PlatformAnalytics, TopDownloads } from '../schemas/analytics.ts';

const tag = 'Analytics';

export const platformAnalytics = defineContract({
  method: 'get',
  path: '/admin/analytics',
  summary: 'Totals (downloads, subscribers, new this week) and daily downloads, revenue and new subscribers',
  tag,
  access: 'admin',
  query: AnalyticsQuery,
  response: PlatformAnalytics,
});

export const topDownloads = defineContract({
  method: 'get',
  path: '/admin/download-stats',
  summary: 'The ten most downloaded movies (completed downloads)',
  tag,
  access: 'admin',
  response: TopDownloads,
});
