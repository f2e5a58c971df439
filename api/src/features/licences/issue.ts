import {
  FILM_TAKEN_DOWN,
  LICENCE_ELSEWHERE,
  type Licence,
  type LicenceWay,
  NO_LICENCE_WITHOUT_DOWNLOAD,
} from '@filamu/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { transactionRetrying } from '../../db/retry.ts';
import { downloads, licences, movies } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ContentKeys } from '../content-keys/content-keys.ts';
import type { Metrics } from '../metrics/registry.ts';
import { type Downloader, ownDownloads } from '../movies/entitlement.ts';
import { readDeviceKey, wrapForDevice } from './device-key.ts';
import type { LicenceSigner } from './signing.ts';

/**
 * Licences (decision 0230). A licence is issued only for a download the grant allowed (every rule of who may have
 * which film is the grant's), to the phone that asks, and a download has one live licence at a time: the
 * single-device rule for films. Issuing again to the same phone gives the same licence, wrapped anew.
 */

export interface LicenceDeps {
  database: Database;
  clock: Clock;
  contentKeys: ContentKeys;
  licenceSigner: LicenceSigner;
  metrics: Pick<Metrics, 'licencesIssued'>;
}

/** The phone asking: the session's device id and the public key it sent. */
export interface LicencePhone {
  deviceId: string;
  devicePublicKey: string;
}

type LicenceRow = typeof licences.$inferSelect;

const subjectOf = (downloader: Downloader) => `${downloader.kind}:${downloader.id}`;

/**
 * With a grant (a link was just given for `downloadId`): the film goes to this phone. A live licence on another phone
 * moves here — the grant already decided this person may have the file now, and a completed film reaches a new phone
 * only through a re-download.
 */
export function licenceWithGrant(
  deps: LicenceDeps,
  downloader: Downloader,
  phone: LicencePhone,
  grant: { downloadId: string; movieId: string; redownload: boolean },
): Promise<Licence> {
  return issue(deps, downloader, phone, grant, { fromOtherPhone: grant.redownload ? 'redownload' : 'download' });
}

/**
 * Without a grant: the licence of a film this person already downloaded (made before licences, or a phone that lost
 * its licence but kept the file). Never moves a film from another phone: that is a re-download.
 */
export async function licenceOfDownloaded(
  deps: LicenceDeps,
  downloader: Downloader,
  phone: LicencePhone,
  movieId: string,
): Promise<Licence> {
  const [download] = await deps.database.db
    .select({ id: downloads.id, takenDownAt: movies.takenDownAt })
    .from(downloads)
    .innerJoin(movies, eq(movies.id, downloads.movieId))
    .where(and(ownDownloads(downloader), eq(downloads.movieId, movieId)));
  if (!download) throw new AppError('not_found', NO_LICENCE_WITHOUT_DOWNLOAD);
  if (download.takenDownAt) throw new AppError('forbidden', FILM_TAKEN_DOWN);
  return issue(deps, downloader, phone, { downloadId: download.id, movieId }, { fromOtherPhone: null });
}

async function issue(
  deps: LicenceDeps,
  downloader: Downloader,
  phone: LicencePhone,
  target: { downloadId: string; movieId: string },
  { fromOtherPhone }: { fromOtherPhone: LicenceWay | null },
): Promise<Licence> {
  const device = readDeviceKey(phone.devicePublicKey);
  const contentKey = await deps.contentKeys.keyOf(target.movieId);
  // The common case, a phone asking again for the licence it holds, writes nothing and takes no lock.
  const held = await liveLicence(deps.database.db, target.downloadId);
  const row =
    held && held.deviceId === phone.deviceId && held.deviceKeyId === device.id
      ? held
      : await writeLicence(deps, downloader, phone.deviceId, device.id, target, fromOtherPhone);
  const wrappedKey = wrapForDevice(device, contentKey).toString('base64url');
  const token = await deps.licenceSigner.sign({
    v: 1,
    lid: row.id,
    mid: row.movieId,
    sub: subjectOf(downloader),
    dev: row.deviceId,
    kid: row.deviceKeyId,
    way: row.way,
    iat: Math.floor(row.issuedAt.getTime() / 1000),
    key: wrappedKey,
  });
  return {
    id: row.id,
    movieId: row.movieId,
    deviceId: row.deviceId,
    deviceKeyId: row.deviceKeyId,
    wrappedKey,
    way: row.way,
    issuedAt: row.issuedAt.toISOString(),
    token,
  };
}

/** The licence row for this phone, under the download's row lock: twenty requests at once leave one live licence. */
async function writeLicence(
  deps: LicenceDeps,
  downloader: Downloader,
  deviceId: string,
  deviceKeyId: string,
  target: { downloadId: string; movieId: string },
  fromOtherPhone: LicenceWay | null,
): Promise<LicenceRow> {
  const now = deps.clock.now();
  const { row, issued } = await transactionRetrying(deps.database.db, async (tx) => {
    await tx.select({ id: downloads.id }).from(downloads).where(eq(downloads.id, target.downloadId)).for('update');
    const live = await liveLicence(tx, target.downloadId);
    if (live && live.deviceId === deviceId) {
      // The same phone; a new key means it lost its old one (storage cleared), so the licence follows the key.
      if (live.deviceKeyId === deviceKeyId) return { row: live, issued: false };
      const [row] = await tx.update(licences).set({ deviceKeyId }).where(eq(licences.id, live.id)).returning();
      return { row: row!, issued: false };
    }
    if (live && !fromOtherPhone) throw new AppError('licence_elsewhere', LICENCE_ELSEWHERE);
    if (live) {
      await tx.update(licences).set({ revokedAt: now, revokedReason: 'moved' }).where(eq(licences.id, live.id));
    }
    const [row] = await tx
      .insert(licences)
      .values({
        downloadId: target.downloadId,
        movieId: target.movieId,
        ...(downloader.kind === 'user' ? { userId: downloader.id } : { agentId: downloader.id }),
        deviceId,
        deviceKeyId,
        way: live ? (fromOtherPhone ?? 'download') : 'download',
        issuedAt: now,
      })
      .returning();
    return { row: row!, issued: true };
  });
  if (issued) deps.metrics.licencesIssued.inc({ way: row.way });
  return row;
}

async function liveLicence(exec: Executor, downloadId: string): Promise<LicenceRow | undefined> {
  const [row] = await exec
    .select()
    .from(licences)
    .where(and(eq(licences.downloadId, downloadId), isNull(licences.revokedAt)));
  return row;
}
