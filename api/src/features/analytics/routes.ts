import { contracts } from '@filamu/shared';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import { platformAnalytics, topDownloads } from './analytics.ts';

const { analytics } = contracts;

export function analyticsRoutes(router: ContractRouter, deps: Deps): void {
  router
    .on(analytics.platformAnalytics, ({ query }) => platformAnalytics(deps, query.days))
    .on(analytics.topDownloads, () => topDownloads(deps));
}
