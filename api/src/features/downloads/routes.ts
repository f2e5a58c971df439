import { contracts, type DownloadUrlResponse } from '@filamu/shared';
import type { Context } from 'hono';
import type { Deps } from '../../deps.ts';
import type { ContractRouter } from '../../http/contract-router.ts';
import type { AppEnv } from '../../http/env.ts';
import { absoluteUrl, publicOrigin } from '../../http/origin.ts';
import {
  completeDownload,
  downloadHistory,
  downloadRecordOfMovie,
  downloadStats,
  failDownload,
  hasDownloaded,
  kinayugandaStatus,
  reportProgress,
} from './bookkeeping.ts';
import { clientIp } from '../auth/client-ip.ts';
import { hiddenForSession } from '../auth/parental-status.ts';
import { hitLimits } from '../rate-limit/limiter.ts';
import { downloadLinks } from '../rate-limit/limits.ts';
import { canUseBackgroundFetch, refuseBackground } from './background-links.ts';
import { downloaderOf } from '../movies/entitlement.ts';
import { grantDownload } from './grants.ts';
import { holderOf } from './link-checks.ts';
import { mintDownloadLink } from './links.ts';
import { receivedLicence } from './received.ts';
import { redownloadAllowance } from './redownloads.ts';

const { downloads } = contracts;

export function downloadRoutes(router: ContractRouter, deps: Deps): void {
  const caller = (c: Context<AppEnv>) => downloaderOf(c.get('principal'), deps.clock.now());
  const hiddenByPin = (c: Context<AppEnv>) => hiddenForSession(c.get('principal'), deps.clock.now());
  router
    .on(downloads.downloadUrl, async ({ body }, c): Promise<DownloadUrlResponse> => {
      const downloader = caller(c);
      const background = body.purpose === 'background';
      if (background && !canUseBackgroundFetch(c.req.header('User-Agent'))) refuseBackground();
      await hitLimits(deps.database.db, deps.clock.now(), [
        { limit: downloadLinks.perAccount, subject: `${downloader.kind}:${downloader.id}` },
        { limit: downloadLinks.perIp, subject: clientIp(c, deps.config.trustProxy) },
      ]);
      const link = await mintDownloadLink(
        deps,
        {
          downloader,
          background,
          hiddenByPin: hiddenByPin(c),
          holder: holderOf(c.get('principal')),
          deviceId: c.get('principal').deviceId,
        },
        body,
      );
      return { ...link, downloadUrl: absoluteUrl(link.downloadUrl, publicOrigin(c, deps.config)) };
    })
    .on(downloads.startDownload, async ({ body }, c) => {
      const { download } = await grantDownload(deps, caller(c), body, { hiddenByPin: hiddenByPin(c) });
      return {
        downloadId: download.id,
        status: download.status,
        downloadedBytes: download.downloadedBytes,
        totalBytes: download.totalBytes,
        resumedCount: download.resumedCount,
      };
    })
    .on(downloads.reportProgress, ({ params, body }, c) => reportProgress(deps, caller(c), params.id, body))
    .on(downloads.completeDownload, ({ params, body }, c) =>
      completeDownload(deps, caller(c), params.id, body?.downloadedBytes),
    )
    .on(downloads.failDownload, ({ params, body }, c) => failDownload(deps, caller(c), params.id, body.error))
    .on(downloads.downloadRecord, ({ params }, c) => downloadRecordOfMovie(deps, caller(c), params.movieId))
    .on(downloads.hasDownloaded, ({ params }, c) => hasDownloaded(deps, caller(c), params.movieId))
    .on(downloads.kinayugandaStatus, (_input, c) => kinayugandaStatus(deps, caller(c), hiddenByPin(c)))
    .on(downloads.downloadStats, (_input, c) => downloadStats(deps, caller(c)))
    .on(downloads.downloadHistory, (_input, c) => downloadHistory(deps, caller(c)))
    // A film received whole from another phone (issue 19/22): its licence, as this person's download of it.
    .on(contracts.filmFiles.receivedLicence, ({ body }, c) =>
      receivedLicence(
        deps,
        { downloader: caller(c), deviceId: c.get('principal').deviceId, hiddenByPin: hiddenByPin(c) },
        body,
      ),
    )
    .on(downloads.redownloadAllowance, (_input, c) =>
      redownloadAllowance(deps.database.db, caller(c).id, deps.config.redownloadsPerMonth, deps.clock.now()),
    );
}
