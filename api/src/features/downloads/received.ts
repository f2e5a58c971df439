import type { DownloadSize, Licence, ParentalHides, ReceivedLicenceRequest } from '@filamu/shared';
import { and, eq } from 'drizzle-orm';
import { downloads, receivedFilmsWaiting } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { grantDownload } from './grants.ts';
import type { LinkDeps } from './links.ts';
import { licenceAlongGrant, licenceOfDownloaded, licenceOfRow } from '../licences/issue.ts';
import type { LicenceSigner } from '../licences/signing.ts';
import { type Downloader, ownDownloads } from '../movies/entitlement.ts';
import { verifiedManifest } from '../film-transfer/manifests.ts';

export interface ReceivedDeps extends LinkDeps {
  licenceSigner: LicenceSigner;
}

export interface Receiver {
  downloader: Downloader;
  /** The session's device id: the licence is bound to it. */
  deviceId: string;
  hiddenByPin: ParentalHides | null;
}

/**
 * A film that came whole from another phone (issue 19/22) gets its licence as if it had been downloaded: the manifest
 * proves the bytes are a file Filamu made of that film, and the grant's rules decide (plan, Kinayuganda first, the
 * parental PIN, once per person). A first one is the person's download of the film, completed at once with no byte
 * over the network, and its licence says `transfer`. A film the person already has keeps the licence rules of a
 * download: here already, it is the same licence; on another phone, `licence_elsewhere` (moving it is a re-download).
 */
export async function receivedLicence(
  deps: ReceivedDeps,
  receiver: Receiver,
  request: ReceivedLicenceRequest,
): Promise<Licence> {
  const claims = await verifiedManifest(deps.licenceSigner, request.manifest);
  return licenceForReceivedFilm(deps, receiver, request.devicePublicKey, {
    movieId: claims.mid,
    size: claims.size,
    fromAgentId: claims.agent ?? null,
  });
}

/**
 * The rules of a received film, whatever proved it came whole: the signed manifest (above) or, with no data, the USSD
 * unlock (features/ussd, decision 0249), which knows the film but not which of its files the phone holds (`size`
 * absent: the original). The same request twice at once has one effect: the second finds the first's download under
 * the grant's lock (`already_downloaded`) and gets the licence the first made, as a film already held.
 */
export async function licenceForReceivedFilm(
  deps: ReceivedDeps,
  receiver: Receiver,
  devicePublicKey: string,
  film: { movieId: string; size?: DownloadSize; fromAgentId: string | null },
): Promise<Licence> {
  const { downloader } = receiver;
  const phone = { deviceId: receiver.deviceId, devicePublicKey };
  const [held] = await deps.database.db
    .select({ status: downloads.status, redownloadStartedAt: downloads.redownloadStartedAt })
    .from(downloads)
    .where(and(ownDownloads(downloader), eq(downloads.movieId, film.movieId)));
  if (held?.status === 'completed' && held.redownloadStartedAt === null) {
    return licenceOfDownloaded(deps, downloader, phone, film.movieId);
  }
  const licensing = licenceAlongGrant(deps, downloader, phone, 'transfer');
  try {
    const grant = await grantDownload(
      deps,
      downloader,
      { movieId: film.movieId, size: film.size },
      { hiddenByPin: receiver.hiddenByPin, received: { fromAgentId: film.fromAgentId }, alongside: licensing },
    );
    return licenceOfRow(deps, downloader, licensing.device, grant.alongside!);
  } catch (error) {
    if (error instanceof AppError && error.code === 'already_downloaded') {
      return licenceOfDownloaded(deps, downloader, phone, film.movieId);
    }
    if (error instanceof AppError && error.code === 'subscription_required' && downloader.kind === 'user') {
      await recordWaitingForPlan(deps, downloader.id, film.movieId, film.fromAgentId);
    }
    throw error;
  }
}

/**
 * The film now waits on the person's phone for a plan (issue 19/22 §5): kept once, from the first time, so a plan
 * bought after it counts as one the film brought (the analytics, and the agent whose phone sent it).
 */
async function recordWaitingForPlan(
  deps: ReceivedDeps,
  userId: string,
  movieId: string,
  fromAgentId: string | null,
): Promise<void> {
  await deps.database.db
    .insert(receivedFilmsWaiting)
    .values({ userId, movieId, fromAgentId, waitingSince: deps.clock.now() })
    .onConflictDoNothing();
}
