import type { DownloadUrlResponse, ParentalHides } from '@filamu/shared';
import type { Config } from '../../config.ts';
import type { Downloader } from '../movies/entitlement.ts';
import { type LicenceDeps, licenceAlongGrant, licenceOfRow } from '../licences/issue.ts';
import { backgroundLinkSeconds } from './background-links.ts';
import type { GrantRef } from './grant-reads.ts';
import { type GrantDeps, grantDownload } from './grants.ts';
import { downloadFileName } from './records.ts';

export interface LinkDeps extends Omit<GrantDeps, 'config' | 'metrics'>, Omit<LicenceDeps, 'metrics'> {
  config: Pick<Config, 'redownloadsPerMonth' | 'storage'>;
  metrics: GrantDeps['metrics'] & LicenceDeps['metrics'];
}

/** Who asks for a link, and what the request itself says about them. */
export interface LinkAsker {
  downloader: Downloader;
  /** A Background Fetch job's link (decision 0112): it must outlast the whole transfer. */
  background: boolean;
  /** The ratings the session's parental PIN hides. */
  hiddenByPin: ParentalHides | null;
  /** The session and credential stamp the link is bound to (decision 0109). */
  holder: string;
  /** The session's device id: a licence asked for with the link is bound to it. */
  deviceId: string;
}

/**
 * A download link: the grant (every rule of who may have which file, decision 0111), then a presigned URL that lives
 * as long as the link should — an hour, longer for a background job, and on S3 never past the download's one live
 * window (decision 0192). The URL is relative on the local driver; the route makes it absolute.
 */
export async function mintDownloadLink(
  deps: LinkDeps,
  asker: LinkAsker,
  request: GrantRef & { devicePublicKey?: string | undefined },
): Promise<DownloadUrlResponse> {
  const { storage: config } = deps.config;
  const linkSeconds = (bytes: number) =>
    asker.background
      ? backgroundLinkSeconds(bytes, {
          foreground: config.downloadUrlTtlSeconds,
          cap: config.backgroundDownloadUrlTtlSeconds,
        })
      : config.downloadUrlTtlSeconds;
  // With the link, never as another round trip: the phone's licence for this film, written in the grant's transaction
  // (decision 0230). A key that is not sound is refused before the grant.
  const licensing = request.devicePublicKey
    ? licenceAlongGrant(deps, asker.downloader, { deviceId: asker.deviceId, devicePublicKey: request.devicePublicKey })
    : null;
  const grant = await grantDownload(deps, asker.downloader, request, {
    mintsLink: true,
    hiddenByPin: asker.hiddenByPin,
    linkSeconds,
    ...(licensing ? { alongside: licensing } : {}),
  });
  const { download, movie, file } = grant;
  const now = deps.clock.now().getTime();
  const ttl =
    deps.storage.driver === 's3' && download.linkExpiresAt
      ? Math.max(1, Math.floor((download.linkExpiresAt.getTime() - now) / 1000))
      : linkSeconds(file.size);
  const licence =
    licensing && grant.alongside ? await licenceOfRow(deps, asker.downloader, licensing.device, grant.alongside) : null;
  const fileName = downloadFileName(movie, { key: file.key, size: download.size });
  const url = await deps.storage.presignGet(file.key, {
    expiresInSeconds: ttl,
    downloadName: fileName,
    grant: download.id,
    holder: asker.holder,
  });
  return {
    downloadUrl: url,
    fileSize: file.size,
    downloadId: download.id,
    expiresAt: new Date(now + ttl * 1000).toISOString(),
    etag: file.etag,
    fileName,
    size: download.size,
    downloadedBytes: download.downloadedBytes,
    resumedCount: download.resumedCount,
    redownloads: grant.redownloads,
    licence,
    fileNonce: file.nonce,
  };
}
